package org.spongefiles.integration;

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
 * holds: the names in hadoop/ come from the assembly's destination names, the names in lib/ from
 * this module's SpongeFiles dependencies the assembly keeps ({@code <artifactId>-<version>.jar}). A
 * path under a module's {@code target/} is a build from source and is not checked.
 */
class DocsJarNamesTest {
  private static final Path ROOT = Path.of("..");
  private static final Path ASSEMBLY = Path.of("src", "assembly", "distribution.xml");
  private static final Path POM = Path.of("pom.xml");
  private static final Pattern JAR =
      Pattern.compile("([A-Za-z0-9_.$/{}<>-]*?)(sponge-[A-Za-z0-9_.{}<>$-]*?\\.jar)");
  private static final Pattern DEPENDENCY =
      Pattern.compile("<dependency>(.*?)</dependency>", Pattern.DOTALL);

  @Test
  void everyJarNamedInTheDocsAndConfIsInTheDistribution() throws IOException {
    String version = version();
    Set<String> shipped = shippedJars();
    assertThat(shipped).contains("sponge-core-<version>.jar", "sponge-hadoop-<version>.jar");

    List<Path> sources = new ArrayList<>();
    sources.add(ROOT.resolve("README.md"));
    sources.addAll(list(ROOT.resolve("docs"), ".md"));
    sources.addAll(list(Path.of("src", "main", "dist", "conf"), ""));
    sources.addAll(list(ROOT.resolve("pig-databag").resolve("src/main/dist"), ""));

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
          // Filtered sources (the Pig recipe) name the version as the build fills it in.
          String name =
              m.group(2).replace(version, "<version>").replace("${project.version}", "<version>");
          if (!shipped.contains(name)) {
            unknown.add(ROOT.relativize(source.normalize()) + ":" + (i + 1) + ": " + name);
          }
        }
      }
    }
    assertThat(checked).isPositive();
    assertThat(unknown)
        .as("jar names the distribution does not have (it has %s)", shipped)
        .isEmpty();
  }

  /** hadoop/ destination names and the SpongeFiles jars the assembly copies into lib/. */
  private static Set<String> shippedJars() throws IOException {
    String assembly = Files.readString(ASSEMBLY);
    Set<String> names = new TreeSet<>();
    Matcher dest = Pattern.compile("<destName>(.*?)</destName>").matcher(assembly);
    while (dest.find()) {
      names.add(dest.group(1).replace("${project.version}", "<version>"));
    }
    Matcher dependency = DEPENDENCY.matcher(Files.readString(POM));
    while (dependency.find()) {
      String block = dependency.group(1);
      String artifact = tag(block, "artifactId");
      if (tag(block, "groupId").equals("org.spongefiles")
          && !block.contains("<scope>test</scope>")
          && !assembly.contains("<exclude>org.spongefiles:" + artifact + "</exclude>")) {
        names.add(artifact + "-<version>.jar");
      }
    }
    return names;
  }

  private static String version() throws IOException {
    return tag(Files.readString(POM), "version");
  }

  private static String tag(String xml, String tag) {
    Matcher m = Pattern.compile("<" + tag + ">(.*?)</" + tag + ">").matcher(xml);
    return m.find() ? m.group(1).trim() : "";
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
