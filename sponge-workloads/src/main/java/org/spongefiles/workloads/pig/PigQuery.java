package org.spongefiles.workloads.pig;

import java.util.List;
import java.util.Locale;
import org.spongefiles.testkit.data.WebCrawlGenerator;

/**
 * Pig queries over {@link WebCrawlGenerator}'s pages: the SpongeFiles paper's two (holistic UDFs
 * over skewed groups, the kind that makes a reduce task spill its bags), a per-domain median with
 * nested ORDER and DISTINCT, a COGROUP, and a hash and a skewed JOIN.
 */
public enum PigQuery {
  /**
   * Frequent Anchortext: group pages by language; for each language the number of distinct
   * anchortexts (a nested DISTINCT) and the 10 most frequent anchortext terms ({@link TopK}).
   */
  ANCHORTEXT {
    @Override
    List<String> body() {
      return List.of(
          "DEFINE TopK " + TopK.class.getName() + "('10');",
          "anchors = FOREACH pages GENERATE anchortext, url, inlinks, language;",
          "bylang = GROUP anchors BY language;",
          "top = FOREACH bylang { texts = DISTINCT anchors.anchortext; "
              + "GENERATE group AS language, COUNT(texts) AS texts, FLATTEN(TopK(anchors)); };",
          "STORE top INTO '$output' USING PigStorage('\\t');");
    }
  },

  /**
   * Spam Quantiles: group pages by domain, without projecting first; for each domain the spam score
   * deciles from {@link SpamQuantiles}, which sorts the whole page tuples in a sorted bag.
   */
  QUANTILES {
    @Override
    List<String> body() {
      return List.of(
          "DEFINE SpamQuantiles " + SpamQuantiles.class.getName() + "('3');",
          "bydomain = GROUP pages BY domain;",
          "quantiles = FOREACH bydomain GENERATE group AS domain, "
              + "FLATTEN(SpamQuantiles(pages));",
          "STORE quantiles INTO '$output' USING PigStorage('\\t');");
    }
  },

  /**
   * Per-domain median, as a user would write it (not one of the paper's queries): group pages by
   * domain; for each domain a nested ORDER by spam score read by {@link Median}, and two nested
   * DISTINCTs (urls, anchortexts) counted. Pig moves one of the three into the shuffle as a
   * secondary key (unless {@code pig.exec.nosecondarykey}) and builds bags for the others.
   */
  MEDIAN {
    @Override
    List<String> body() {
      return List.of(
          "DEFINE Median " + Median.class.getName() + "();",
          "bydomain = GROUP pages BY domain;",
          "medians = FOREACH bydomain { byspam = ORDER pages BY spam; "
              + "urls = DISTINCT pages.url; texts = DISTINCT pages.anchortext; "
              + "GENERATE group AS domain, COUNT(pages) AS pages, Median(byspam.spam) AS median, "
              + "COUNT(urls) AS urls, COUNT(texts) AS texts; };",
          "STORE medians INTO '$output' USING PigStorage('\\t');");
    }
  },

  /**
   * A domain's pages counted beside the spam quantiles of its spammiest ones, as a user would write
   * it (not one of the paper's queries): a COGROUP, by domain, of the pages with the pages whose
   * spam score is at least 0.9 (2-30% of a domain's, by its score distribution); COUNT over the
   * first bag, {@link SpamQuantiles} over the second (Pig builds both bags: the UDF is not an
   * accumulator). Stock Pig gives each of a COGROUP's two bags half of the bags' memory, ours each
   * all of it (docs/pig-databag.md).
   */
  COGROUP {
    @Override
    List<String> body() {
      return List.of(
          "DEFINE SpamQuantiles " + SpamQuantiles.class.getName() + "('3');",
          "spammiest = FILTER pages BY spam >= 0.9;",
          "both = COGROUP pages BY domain, spammiest BY domain;",
          "quantiles = FOREACH both GENERATE group AS domain, COUNT(pages) AS pages, "
              + "FLATTEN(SpamQuantiles(spammiest));",
          "STORE quantiles INTO '$output' USING PigStorage('\\t');");
    }
  },

  /**
   * The pages scoring above their domain's mean spam score, as a user would write it (not one of
   * the paper's queries): a GROUP by domain for the means, joined back to the pages by domain with
   * Pig's skewed JOIN. Three jobs in one script: the GROUP, the join's sampling job, the join,
   * whose reduce holds a domain's pages in a bag (the largest domain has about a quarter of them).
   * Pig 0.18.0's skewed join needs commons-collections 3 on the classpath.
   */
  SKEWED_JOIN {
    @Override
    List<String> body() {
      return List.of(
          "bydomain = GROUP pages BY domain;",
          "means = FOREACH bydomain GENERATE group AS domain, AVG(pages.spam) AS mean;",
          "joined = JOIN pages BY domain, means BY domain USING 'skewed';",
          "above = FILTER joined BY pages::spam > means::mean;",
          "spammy = FOREACH above GENERATE pages::url, pages::domain, pages::spam, means::mean;",
          "STORE spammy INTO '$output' USING PigStorage('\\t');");
    }
  },

  /**
   * Each page beside its domain's page count, as a hash JOIN by domain of the pages with the
   * domains' counts (not one of the paper's queries): a large domain's pages fill one bag of the
   * join, its count the other.
   */
  JOIN {
    @Override
    List<String> body() {
      return joinBody("");
    }
  },

  /** {@link #JOIN} as a skewed join ({@code USING 'skewed'}): Pig samples the keys first. */
  JOIN_SKEWED {
    @Override
    List<String> body() {
      return joinBody(" USING 'skewed'");
    }
  };

  private static List<String> joinBody(String using) {
    return List.of(
        "bydomain = GROUP pages BY domain;",
        "counts = FOREACH bydomain GENERATE group AS domain, COUNT(pages) AS pages;",
        "joined = JOIN pages BY domain, counts BY domain" + using + ";",
        "rows = FOREACH joined GENERATE pages::url, pages::domain, counts::pages;",
        "STORE rows INTO '$output' USING PigStorage('\\t');");
  }

  abstract List<String> body();

  /** Lower-case name, as in benchmark lines and output directories. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The script's statements, reading pages from {@code input} and storing into {@code output}. */
  public List<String> statements(String input, String output) {
    List<String> body = body();
    String[] all = new String[body.size() + 1];
    all[0] =
        "pages = LOAD '"
            + input
            + "' USING PigStorage('\\t') AS ("
            + WebCrawlGenerator.SCHEMA
            + ");";
    for (int i = 0; i < body.size(); i++) {
      all[i + 1] = body.get(i).replace("$output", output);
    }
    return List.of(all);
  }
}
