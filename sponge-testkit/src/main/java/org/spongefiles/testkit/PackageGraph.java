package org.spongefiles.testkit;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
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

/**
 * The package dependencies of a module's main classes, read from the compiled classes by the JDK's
 * jdeps, and the cycles among them: each module's cycle test asks for {@link #cycles()} to be
 * empty.
 */
public final class PackageGraph {
  private final String jdeps;
  private final Map<String, Set<String>> edges;

  private PackageGraph(String jdeps, Map<String, Set<String>> edges) {
    this.jdeps = jdeps;
    this.edges = edges;
  }

  /**
   * The graph of the packages under {@code root} in the classes directory or jar holding {@code
   * anyMainClass}: every package of it to the packages under {@code root} it uses (none for a
   * package that uses only other modules).
   */
  public static PackageGraph of(Class<?> anyMainClass, String root) {
    String out = jdeps(location(anyMainClass));
    Pattern edge =
        Pattern.compile(
            "^\\s+("
                + Pattern.quote(root)
                + "[\\w.]*)\\s+->\\s+("
                + Pattern.quote(root)
                + "[\\w.]*)\\s");
    Pattern source = Pattern.compile("^\\s+(" + Pattern.quote(root) + "[\\w.]*)\\s+->");
    Map<String, Set<String>> edges = new TreeMap<>();
    for (String line : out.split("\n")) {
      Matcher s = source.matcher(line);
      if (s.find()) {
        edges.computeIfAbsent(s.group(1), k -> new TreeSet<>());
      }
      Matcher m = edge.matcher(line);
      if (m.find() && !m.group(1).equals(m.group(2))) {
        edges.computeIfAbsent(m.group(1), k -> new TreeSet<>()).add(m.group(2));
        edges.computeIfAbsent(m.group(2), k -> new TreeSet<>());
      }
    }
    return new PackageGraph(out, edges);
  }

  /** A graph given by hand (for testing the cycle search itself). */
  public static PackageGraph of(Map<String, Set<String>> edges) {
    return new PackageGraph("", edges);
  }

  /** Package to the packages of the module it uses. */
  public Map<String, Set<String>> edges() {
    return Collections.unmodifiableMap(edges);
  }

  /** The packages {@code pkg} uses (empty when it uses none or is unknown). */
  public Set<String> uses(String pkg) {
    return edges.getOrDefault(pkg, Set.of());
  }

  /** jdeps' lines naming a dependency on a package starting with {@code prefix}. */
  public List<String> linesUsing(String prefix) {
    List<String> lines = new ArrayList<>();
    for (String line : jdeps.split("\n")) {
      if (line.contains("-> " + prefix)) {
        lines.add(line.trim());
      }
    }
    return lines;
  }

  /** The strongly connected components with more than one package (Tarjan), each sorted. */
  public List<List<String>> cycles() {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Set<String> onStack = new TreeSet<>();
    List<List<String>> found = new ArrayList<>();
    for (String start : edges.keySet()) {
      if (!index.containsKey(start)) {
        visit(start, index, low, stack, onStack, found);
      }
    }
    return found;
  }

  private void visit(
      String node,
      Map<String, Integer> index,
      Map<String, Integer> low,
      Deque<String> stack,
      Set<String> onStack,
      List<List<String>> found) {
    index.put(node, index.size());
    low.put(node, index.get(node));
    stack.push(node);
    onStack.add(node);
    for (String next : edges.getOrDefault(node, Set.of())) {
      if (!index.containsKey(next)) {
        visit(next, index, low, stack, onStack, found);
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

  private static Path location(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("No file location for " + type, e);
    }
  }

  private static String jdeps(Path classes) {
    ToolProvider jdeps =
        ToolProvider.findFirst("jdeps")
            .orElseThrow(() -> new IllegalStateException("jdeps is not in this JDK"));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int rc =
        jdeps.run(
            new PrintWriter(out), new PrintWriter(err), "-verbose:package", classes.toString());
    if (rc != 0) {
      throw new IllegalStateException("jdeps " + classes + " exited " + rc + ": " + err);
    }
    return out.toString();
  }
}
