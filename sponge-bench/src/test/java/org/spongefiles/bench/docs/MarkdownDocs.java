package org.spongefiles.bench.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The project's Markdown as the docs tests read it: which files, their links, their headings'
 * anchors (GitHub's rule) and the Maven command lines they show.
 */
final class MarkdownDocs {
  private static final Pattern LINK =
      Pattern.compile("\\]\\(([^)\\s]+)\\)|<(?:img|a) [^>]*(?:src|href)=\"([^\"]+)\"");
  private static final Pattern IMAGE =
      Pattern.compile("!\\[[^\\]]*\\]\\(([^)\\s]+)\\)|<img [^>]*src=\"([^\"]+)\"");
  private static final Pattern HEADING = Pattern.compile("^ {0,3}#{1,6} +(.*?)#*\\s*$");
  private static final Pattern COMMAND = Pattern.compile("mvn -[^`\\n]*");

  private MarkdownDocs() {}

  /** The checkout's top folder: the nearest folder up from here holding README.md and docs/. */
  static Path root() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("docs"))) {
        return dir;
      }
    }
    throw new IllegalStateException(
        "no folder above " + Path.of("").toAbsolutePath() + " holds README.md and docs/");
  }

  /** README.md and docs/*.md: the pages that show commands to run today. */
  static List<Path> pagesWithCommands() {
    Path root = root();
    List<Path> pages = new ArrayList<>();
    pages.add(root.resolve("README.md"));
    try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return pages;
  }

  /** README.md and every .md under docs/ except docs/results (raw and generated outputs). */
  static List<Path> allPages() {
    Path root = root();
    Path results = root.resolve("docs").resolve("results");
    List<Path> pages = new ArrayList<>();
    pages.add(root.resolve("README.md"));
    try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md") && !p.startsWith(results))
          .sorted()
          .forEach(pages::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return pages;
  }

  static String read(Path page) {
    try {
      return Files.readString(page, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The page's lines with fenced code blocks blanked (line numbers kept). */
  static List<String> proseLines(Path page) {
    List<String> lines = new ArrayList<>();
    boolean fenced = false;
    for (String line : read(page).split("\n", -1)) {
      if (line.stripLeading().startsWith("```")) {
        fenced = !fenced;
        lines.add("");
      } else {
        lines.add(fenced ? "" : line);
      }
    }
    return lines;
  }

  /** Link targets on one line of prose, code spans left out; {@code images} keeps images only. */
  static List<String> targets(String line, boolean images) {
    Matcher m = (images ? IMAGE : LINK).matcher(line.replaceAll("`[^`]*`", ""));
    List<String> targets = new ArrayList<>();
    while (m.find()) {
      targets.add(m.group(1) != null ? m.group(1) : m.group(2));
    }
    return targets;
  }

  static boolean isExternal(String target) {
    return target.matches("[a-zA-Z][a-zA-Z0-9+.-]*:.*");
  }

  /** The anchors GitHub gives the page's headings. */
  static Set<String> anchors(Path page) {
    Set<String> anchors = new LinkedHashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    for (String line : proseLines(page)) {
      Matcher m = HEADING.matcher(line);
      if (m.matches()) {
        String slug =
            m.group(1)
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N}_\\- ]", "")
                .replace(' ', '-');
        int n = seen.merge(slug, 1, Integer::sum) - 1;
        anchors.add(n == 0 ? slug : slug + "-" + n);
      }
    }
    return anchors;
  }

  /** Every {@code mvn -...} command the page shows, backslash-continued lines joined. */
  static List<String> mavenCommands(Path page) {
    String joined = read(page).replaceAll("\\\\\\n\\s*", " ");
    Matcher m = COMMAND.matcher(joined);
    List<String> commands = new ArrayList<>();
    while (m.find()) {
      commands.add(m.group().strip());
    }
    return commands;
  }
}
