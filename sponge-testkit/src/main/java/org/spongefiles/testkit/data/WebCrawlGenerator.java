package org.spongefiles.testkit.data;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Web-crawl-like pages, skewed as in the SpongeFiles paper's Pig workloads (§4.2.1): a few
 * languages and domains hold most pages, anchortext terms follow a Zipf law, and each domain has
 * its own spam score distribution. One page per line, tab-separated, in the order of {@link
 * #SCHEMA}; the same seed always gives the same bytes.
 */
public final class WebCrawlGenerator {
  /** The columns, as a Pig schema. */
  public static final String SCHEMA =
      "url:chararray, domain:chararray, language:chararray, spam:double, inlinks:int, "
          + "anchortext:chararray, crawled:long";

  private static final String[] LANGUAGES = {
    "en", "zh", "es", "ja", "de", "fr", "ru", "pt", "it", "ko", "ar", "nl", "pl", "tr", "sv",
    "id", "vi", "cs", "fa", "he", "el", "hu", "ro", "da", "fi", "th", "no", "uk", "bg", "hr"
  };
  private static final int DOMAINS = 100;
  private static final int VOCABULARY = 20_000;
  private static final long CRAWL_START = 1_356_998_400_000L;

  private final long seed;
  private final Zipf languages = new Zipf(LANGUAGES.length, 1.6);
  private final Zipf domains = new Zipf(DOMAINS, 1.2);
  private final Zipf terms = new Zipf(VOCABULARY, 1.05);

  public WebCrawlGenerator(long seed) {
    this.seed = seed;
  }

  /**
   * Writes {@code pages} pages into {@code files} files {@code part-NNNNN} under {@code dir}.
   *
   * @return the bytes written
   */
  public long write(Path dir, long pages, int files) throws IOException {
    if (pages < 1 || files < 1) {
      throw new IllegalArgumentException(
          "pages : " + pages + ", files : " + files + " (expected: both > 0)");
    }
    Files.createDirectories(dir);
    SplittableRandom random = new SplittableRandom(seed);
    long bytes = 0;
    long page = 0;
    for (int f = 0; f < files; f++) {
      long end = pages * (f + 1) / files;
      Path file = dir.resolve(String.format(Locale.ROOT, "part-%05d", f));
      try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
        StringBuilder line = new StringBuilder(256);
        for (; page < end; page++) {
          line.setLength(0);
          appendPage(line, page, random);
          out.append(line);
          bytes += line.length();
        }
      }
    }
    return bytes;
  }

  private void appendPage(StringBuilder line, long page, SplittableRandom random) {
    int language = languages.sample(random);
    int domain = domains.sample(random);
    String host = String.format(Locale.ROOT, "site%03d.example", domain);
    line.append("http://").append(host).append("/p").append(page).append('\t');
    line.append(host).append('\t');
    line.append(LANGUAGES[language]).append('\t');
    // Each domain's scores lean its own way: the power moves the quantiles apart.
    double spam = Math.pow(random.nextDouble(), 0.3 + (domain % 17) / 4.0);
    line.append(Math.round(spam * 10_000) / 10_000.0).append('\t');
    line.append((int) Math.min(1_000_000, 1 / Math.pow(1 - random.nextDouble(), 1.4))).append('\t');
    int count = 2 + random.nextInt(11);
    for (int i = 0; i < count; i++) {
      if (i > 0) {
        line.append(' ');
      }
      // The same ranks map to other terms in each language, so each has its own top terms.
      int term = (terms.sample(random) + language * 37) % VOCABULARY;
      line.append('w').append(Integer.toString(term, 36));
    }
    line.append('\t');
    line.append(CRAWL_START + random.nextInt(1_000_000_000)).append('\n');
  }

  /** Ranks 0..n-1 with probability proportional to 1/(rank+1)^exponent. */
  private static final class Zipf {
    private final double[] cumulative;

    Zipf(int n, double exponent) {
      cumulative = new double[n];
      double sum = 0;
      for (int i = 0; i < n; i++) {
        sum += 1 / Math.pow(i + 1, exponent);
        cumulative[i] = sum;
      }
      for (int i = 0; i < n; i++) {
        cumulative[i] /= sum;
      }
    }

    int sample(SplittableRandom random) {
      double u = random.nextDouble();
      int low = 0;
      int high = cumulative.length - 1;
      while (low < high) {
        int mid = (low + high) >>> 1;
        if (cumulative[mid] < u) {
          low = mid + 1;
        } else {
          high = mid;
        }
      }
      return low;
    }
  }
}
