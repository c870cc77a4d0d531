package org.spongefiles.workloads.pig;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The two queries' answers computed in plain Java straight from the generated pages, as output
 * lines sorted like {@link #sortedLines}: an independent check on what Pig computes, with stock
 * bags or ours.
 */
public final class PigReference {
  private PigReference() {}

  /** The answer of {@code query} over the pages under {@code input}. */
  public static List<String> answer(PigQuery query, Path input) throws IOException {
    List<String> lines;
    if (query == PigQuery.ANCHORTEXT) {
      lines = anchortext(input);
    } else if (query == PigQuery.QUANTILES) {
      lines = quantiles(input);
    } else {
      throw new IllegalArgumentException("No reference answer for " + query);
    }
    lines.sort(null);
    return lines;
  }

  /** Every line of every part file under {@code dir}, sorted. */
  public static List<String> sortedLines(Path dir) throws IOException {
    List<String> lines = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : (Iterable<Path>) files.sorted()::iterator) {
        if (file.getFileName().toString().startsWith("part-")) {
          lines.addAll(Files.readAllLines(file, StandardCharsets.UTF_8));
        }
      }
    }
    lines.sort(null);
    return lines;
  }

  private interface PageVisitor {
    void visit(String[] page);
  }

  private static void forEachPage(Path input, PageVisitor visitor) throws IOException {
    try (Stream<Path> files = Files.list(input)) {
      for (Path file : (Iterable<Path>) files.sorted()::iterator) {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
          for (String line = in.readLine(); line != null; line = in.readLine()) {
            visitor.visit(line.split("\t", -1));
          }
        }
      }
    }
  }

  /** Per language: distinct anchortexts, term occurrences, and its pages. */
  private static final class Language {
    final Set<String> texts = new HashSet<>();
    final Map<String, Long> occurrences = new HashMap<>();
    final List<Page> pages = new ArrayList<>();
  }

  /** What the second pass needs of a page. */
  private static final class Page {
    final String url;
    final int inlinks;
    final Set<String> terms;

    Page(String url, int inlinks, Set<String> terms) {
      this.url = url;
      this.inlinks = inlinks;
      this.terms = terms;
    }
  }

  private static List<String> anchortext(Path input) throws IOException {
    Map<String, Language> languages = new TreeMap<>();
    forEachPage(
        input,
        page -> {
          Language language = languages.computeIfAbsent(page[2], l -> new Language());
          language.texts.add(page[5]);
          String[] terms = page[5].split(" ");
          for (String term : terms) {
            language.occurrences.merge(term, 1L, Long::sum);
          }
          language.pages.add(
              new Page(page[0], Integer.parseInt(page[4]), new HashSet<>(Arrays.asList(terms))));
        });
    List<String> lines = new ArrayList<>();
    for (Map.Entry<String, Language> entry : languages.entrySet()) {
      Language language = entry.getValue();
      List<Map.Entry<String, Long>> ranked = new ArrayList<>(language.occurrences.entrySet());
      ranked.sort(
          (a, b) ->
              !a.getValue().equals(b.getValue())
                  ? Long.compare(b.getValue(), a.getValue())
                  : a.getKey().compareTo(b.getKey()));
      for (Map.Entry<String, Long> term : ranked.subList(0, Math.min(10, ranked.size()))) {
        long pages = 0;
        String best = null;
        int bestLinks = -1;
        for (Page page : language.pages) {
          if (page.terms.contains(term.getKey())) {
            pages++;
            if (page.inlinks > bestLinks
                || page.inlinks == bestLinks && page.url.compareTo(best) < 0) {
              best = page.url;
              bestLinks = page.inlinks;
            }
          }
        }
        lines.add(
            String.join(
                "\t",
                entry.getKey(),
                Long.toString(language.texts.size()),
                term.getKey(),
                Long.toString(term.getValue()),
                Long.toString(pages),
                best));
      }
    }
    return lines;
  }

  private static List<String> quantiles(Path input) throws IOException {
    Map<String, List<Double>> domains = new TreeMap<>();
    forEachPage(
        input,
        page ->
            domains.computeIfAbsent(page[1], d -> new ArrayList<>()).add(Double.valueOf(page[3])));
    List<String> lines = new ArrayList<>();
    for (Map.Entry<String, List<Double>> entry : domains.entrySet()) {
      List<Double> scores = entry.getValue();
      scores.sort(null);
      StringBuilder line = new StringBuilder(entry.getKey()).append('\t').append(scores.size());
      for (int step = 0; step <= SpamQuantiles.STEPS; step++) {
        line.append('\t').append(scores.get((int) SpamQuantiles.position(step, scores.size())));
      }
      lines.add(line.toString());
    }
    return lines;
  }
}
