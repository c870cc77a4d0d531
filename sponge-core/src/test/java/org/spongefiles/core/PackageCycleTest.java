package org.spongefiles.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * No cycle between the packages of sponge-core, read from the compiled classes by the JDK's jdeps:
 * each package may use those below it, never one that uses it back. The protocol ({@code wire})
 * stands on nothing of core, so the task side and the daemons share it without sharing a pool.
 */
class PackageCycleTest {
  private static final String ROOT = "org.spongefiles.core";
  private static final Pattern EDGE =
      Pattern.compile(
          "^\\s+("
              + Pattern.quote(ROOT)
              + "[\\w.]*)\\s+->\\s+("
              + Pattern.quote(ROOT)
              + "[\\w.]*)\\s");

  @Test
  void thePackagesOfCoreFormNoCycle() throws Exception {
    Map<String, Set<String>> graph = packageGraph();
    assertThat(graph).as("jdeps saw the packages").containsKeys(ROOT, ROOT + ".tier");
    assertThat(cycles(graph)).isEmpty();
  }

  @Test
  void theProtocolImportsNoOtherPackageOfCore() throws Exception {
    Map<String, Set<String>> graph = packageGraph();
    assertThat(graph).as("jdeps saw the packages").containsKeys(ROOT + ".wire", ROOT + ".remote");
    assertThat(graph.get(ROOT + ".wire")).as("packages the protocol uses").isEmpty();
    assertThat(graph.get(ROOT + ".remote"))
        .as("packages the remote tier uses")
        .contains(ROOT + ".wire")
        .doesNotContain(ROOT + ".pool");
  }

  @Test
  void aCycleIsFound() {
    Map<String, Set<String>> graph = new TreeMap<>();
    graph.put("a", new TreeSet<>(List.of("b")));
    graph.put("b", new TreeSet<>(List.of("c")));
    graph.put("c", new TreeSet<>(List.of("a")));
    graph.put("d", new TreeSet<>(List.of("a")));
    assertThat(cycles(graph)).containsExactly(List.of("a", "b", "c"));
  }

  @Test
  void theTaskSideUsesNoNetty() throws Exception {
    assertThat(jdeps().lines().filter(line -> line.contains("-> io.netty")))
        .as("core packages using Netty (the daemons' Netty code is in sponge-daemon)")
        .isEmpty();
  }

  /** jdeps' package-level dependencies of the main classes. */
  private static String jdeps() throws Exception {
    Path classes =
        Path.of(SpongeTask.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int rc =
        jdeps.run(
            new PrintWriter(out), new PrintWriter(err), "-verbose:package", classes.toString());
    assertThat(rc).as("jdeps: %s", err).isZero();
    return out.toString();
  }

  /** Package to the core packages it uses, from jdeps over the main classes. */
  private static Map<String, Set<String>> packageGraph() throws Exception {
    Map<String, Set<String>> graph = new TreeMap<>();
    for (String line : jdeps().split("\n")) {
      Matcher m = EDGE.matcher(line);
      if (m.find() && !m.group(1).equals(m.group(2))) {
        graph.computeIfAbsent(m.group(1), k -> new TreeSet<>()).add(m.group(2));
        graph.computeIfAbsent(m.group(2), k -> new TreeSet<>());
      }
    }
    return graph;
  }

  /** The strongly connected components with more than one package (Tarjan), each sorted. */
  static List<List<String>> cycles(Map<String, Set<String>> graph) {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Set<String> onStack = new TreeSet<>();
    List<List<String>> found = new ArrayList<>();
    for (String start : graph.keySet()) {
      if (!index.containsKey(start)) {
        visit(start, graph, index, low, stack, onStack, found);
      }
    }
    return found;
  }

  private static void visit(
      String node,
      Map<String, Set<String>> graph,
      Map<String, Integer> index,
      Map<String, Integer> low,
      Deque<String> stack,
      Set<String> onStack,
      List<List<String>> found) {
    index.put(node, index.size());
    low.put(node, index.get(node));
    stack.push(node);
    onStack.add(node);
    for (String next : graph.getOrDefault(node, Set.of())) {
      if (!index.containsKey(next)) {
        visit(next, graph, index, low, stack, onStack, found);
        low.put(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.contains(next)) {
        low.put(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node).equals(index.get(node))) {
      Set<String> component = new TreeSet<>();
      String member;
      do {
        member = stack.pop();
        onStack.remove(member);
        component.add(member);
      } while (!member.equals(node));
      if (component.size() > 1) {
        found.add(new ArrayList<>(component));
      }
    }
  }
}
