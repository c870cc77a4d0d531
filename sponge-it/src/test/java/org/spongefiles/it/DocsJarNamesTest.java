package org.spongefiles.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every SpongeFiles jar the guides and the shipped configuration name is a jar the distribution
 * holds, in the directory they name: the unpacked tarball's {@code hadoop/} and {@code lib/} are
 * listed, with the version written as {@code <version>} (or, in a shell command, as {@code $V}). A
 * path under a module's {@code target/} is a build from source and is not checked.
 */
class DocsJarNamesTest {
  private static final Path ROOT = Path.of("..");
  private static final Pattern JAR =
      Pattern.compile("([A-Za-z0-9_.$/{}<>-]*?)(sponge-[A-Za-z0-9_.{}<>$-]*?\\.jar)");

  @Test
  void everyJarNamedInTheDocsAndConfIsInTheDistribution() throws Exception {
    Path dist = Distribution.home();
    String version = dist.getFileName().toString().substring("spongefiles-".length());
    Set<String> shipped = new TreeSet<>();
    shipped.addAll(jars(dist.resolve("hadoop"), version));
    shipped.addAll(jars(dist.resolve("lib"), version));
    assertThat(shipped).contains("sponge-core-<version>.jar", "sponge-hadoop-<version>.jar");

    List<Path> sources = new ArrayList<>();
    sources.add(ROOT.resolve("README.md"));
    sources.addAll(list(ROOT.resolve("docs"), ".md"));
    sources.addAll(list(dist.resolve("conf"), ""));

    Set<String> unknown = new TreeSet<>();
    int checked = 0;
    for (Path source : sources) {
      List<String> lines = Files.readAllLines(source, StandardCharsets.UTF_8);
      for (int i = 0; i < lines.size(); i++) {
        Matcher m = JAR.matcher(lines.get(i));
        while (m.find()) {
          if (m.group(1).contains("target/")) {
            continue;
          }
          checked++;
          String name =
              m.group(2).replace(version, "<version>").replace("-$V.jar", "-<version>.jar");
          if (!shipped.contains(name)) {
            unknown.add(source.getFileName() + ":" + (i + 1) + ": " + name);
          }
        }
      }
    }
    assertThat(checked).isPositive();
    assertThat(unknown)
        .as("jar names the distribution does not have (it has %s)", shipped)
        .isEmpty();
  }

  /** The SpongeFiles jars in {@code dir}, their version written as {@code <version>}. */
  private static Set<String> jars(Path dir, String version) throws IOException {
    return list(dir, ".jar").stream()
        .map(p -> p.getFileName().toString())
        .filter(name -> name.startsWith("sponge-"))
        .map(name -> name.replace(version, "<version>"))
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static List<Path> list(Path dir, String suffix) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(Files::isRegularFile)
          .filter(f -> f.getFileName().toString().endsWith(suffix))
          .sorted()
          .collect(Collectors.toList());
    }
  }
}
