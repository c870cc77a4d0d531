package org.spongefiles.bench.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The benchmark commands README.md and docs/*.md show work as written: each names a program that
 * exists and has a main method, and each builds from a fresh clone.
 */
class BenchCommandsTest {
  private static final Pattern BENCH_MAIN = Pattern.compile("-Dbench\\.main=([^\\s`\"')\\]]+)");
  private static final String[] FAMILIES = {
    "transfer", "median", "pig", "leaky", "node", "dashboard"
  };

  @Test
  void everyBenchMainNamesAClassWithAPublicStaticMain() {
    List<String> named = new ArrayList<>();
    List<String> templates = new ArrayList<>();
    for (Path page : MarkdownDocs.pagesWithCommands()) {
      Matcher m = BENCH_MAIN.matcher(MarkdownDocs.read(page));
      while (m.find()) {
        String name = m.group(1).replaceAll("[.,;:]+$", "");
        (name.contains("<") ? templates : named).add(name);
        if (!name.contains("<")) {
          assertThat(mainMethod(name)).as("%s: -Dbench.main=%s", page.getFileName(), name).isNull();
        }
      }
    }
    assertThat(new TreeSet<>(named))
        .as("the benchmarks docs/benchmarks.md runs")
        .hasSizeGreaterThanOrEqualTo(FAMILIES.length);
    for (String template : templates) {
      String prefix = template.substring(0, template.indexOf('<'));
      assertThat(named)
          .as("the template -Dbench.main=%s names a package of documented benchmarks", template)
          .anyMatch(name -> name.startsWith(prefix));
    }
  }

  @Test
  void everyBenchCommandBuildsFromAFreshClone() {
    int commands = 0;
    for (Path page : MarkdownDocs.pagesWithCommands()) {
      for (String command : MarkdownDocs.mavenCommands(page)) {
        List<String> words = Arrays.asList(command.split("\\s+"));
        if (!words.contains("-Pbench")) {
          continue;
        }
        commands++;
        int pl = words.indexOf("-pl");
        assertThat(pl >= 0 && pl + 1 < words.size() && words.get(pl + 1).equals("sponge-bench"))
            .as("%s: '%s' names -pl sponge-bench", page.getFileName(), command)
            .isTrue();
        assertThat(words).as("%s: '%s' names -am", page.getFileName(), command).contains("-am");
      }
    }
    assertThat(commands).as("mvn -Pbench commands found").isGreaterThanOrEqualTo(10);
  }

  @Test
  void benchmarksPageRunsEveryFamily() {
    String page = MarkdownDocs.read(MarkdownDocs.root().resolve("docs").resolve("benchmarks.md"));
    for (String family : FAMILIES) {
      assertThat(page)
          .as("docs/benchmarks.md runs the %s family", family)
          .contains("-Dbench.main=org.spongefiles.bench." + family + ".");
    }
  }

  /** Null when {@code name} has a public static void main(String[]), else what is wrong. */
  private static String mainMethod(String name) {
    Class<?> type;
    try {
      type = Class.forName(name, false, BenchCommandsTest.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      return "no class " + name + " on sponge-bench's classpath";
    }
    try {
      Method main = type.getMethod("main", String[].class);
      int modifiers = main.getModifiers();
      if (!Modifier.isStatic(modifiers) || main.getReturnType() != void.class) {
        return name + ".main(String[]) is not static void";
      }
      return null;
    } catch (NoSuchMethodException e) {
      return name + " has no public main(String[])";
    }
  }
}
