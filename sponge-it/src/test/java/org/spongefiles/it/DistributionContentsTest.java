package org.spongefiles.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What operators install holds what runs on a cluster and nothing else: no test aid, workload,
 * emulator, benchmark or example class in any jar of {@code hadoop/} or {@code lib/}, and each
 * class in {@code lib/} once (no aggregator jar beside the jars it aggregates).
 */
class DistributionContentsTest {
  /** Packages that only tests, benchmarks and the demo use. */
  private static final List<String> NOT_SHIPPED =
      List.of(
          "org/spongefiles/testkit/",
          "org/spongefiles/workloads/",
          "org/spongefiles/emulator/",
          "org/spongefiles/bench/",
          "org/spongefiles/examples/",
          "org/spongefiles/it/");

  @Test
  void theClusterJarsHoldNoTestCode() throws Exception {
    Path dist = Distribution.home();
    List<String> found = new ArrayList<>();
    int classes = 0;
    for (Path jar : jars(dist)) {
      try (JarFile file = new JarFile(jar.toFile())) {
        for (String name :
            file.stream()
                .map(e -> e.getName())
                .filter(n -> n.startsWith("org/spongefiles/"))
                .collect(Collectors.toList())) {
          classes++;
          boolean testCode =
              NOT_SHIPPED.stream().anyMatch(name::startsWith)
                  || name.contains("/testing/")
                  || name.endsWith("Test.class");
          if (testCode) {
            found.add(jar.getFileName() + "!" + name);
          }
        }
      }
    }
    assertThat(classes).as("SpongeFiles entries in the distribution's jars").isGreaterThan(100);
    assertThat(found).as("test code in the jars operators install").isEmpty();
  }

  @Test
  void everyClassOfLibIsInOneJar() throws Exception {
    Map<String, List<String>> owners = new HashMap<>();
    for (Path jar : list(Distribution.home().resolve("lib"))) {
      try (JarFile file = new JarFile(jar.toFile())) {
        file.stream()
            .map(e -> e.getName())
            .filter(n -> n.endsWith(".class") && !n.startsWith("META-INF/"))
            .filter(n -> !n.endsWith("package-info.class") && !n.endsWith("module-info.class"))
            .forEach(
                n -> owners.computeIfAbsent(n, k -> new ArrayList<>()).add(jar.getFileName() + ""));
      }
    }
    Map<String, List<String>> twice = new TreeMap<>();
    owners.forEach(
        (name, jars) -> {
          if (jars.size() > 1) {
            twice.putIfAbsent(String.join(" + ", new TreeSet<>(jars)), List.of(name));
          }
        });
    assertThat(twice).as("jars of lib/ sharing classes (one example class each)").isEmpty();
  }

  private static List<Path> jars(Path dist) throws IOException {
    List<Path> jars = new ArrayList<>(list(dist.resolve("hadoop")));
    jars.addAll(
        list(dist.resolve("lib")).stream()
            .filter(p -> p.getFileName().toString().startsWith("sponge-"))
            .collect(Collectors.toList()));
    assertThat(jars).as("the distribution's SpongeFiles jars").hasSizeGreaterThan(4);
    return jars;
  }

  private static List<Path> list(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(f -> f.getFileName().toString().endsWith(".jar"))
          .sorted()
          .collect(Collectors.toList());
    }
  }
}
