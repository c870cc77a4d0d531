package org.spongefiles.core.config;

import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks a configuration once, where a task or daemon starts: every key of the option sets it reads
 * is parsed and validated (a bad value throws {@link ConfigException} naming the key), the rules
 * tying a set's keys together are checked ({@link OptionSet#checkTogether}), and every {@code
 * sponge.*} key no module declares is reported once per process with the nearest known key, so a
 * misspelt key does not silently do nothing.
 *
 * <p>A key in another module's namespace ({@code sponge.server.*} in a task, say) is judged only in
 * a process where that module's options are on the classpath: elsewhere the module may simply be
 * absent.
 */
public final class ConfigCheck {
  private static final Logger LOG = LoggerFactory.getLogger(ConfigCheck.class);
  private static final String PREFIX = "sponge.";

  /** The key namespaces each module outside sponge-core owns. */
  private static final Map<String, String> MODULE_NAMESPACES =
      Map.of(
          "sponge.server.", "sponge-server",
          "sponge.tracker.", "tracker",
          "sponge.merger.", "hadoop-merger",
          "sponge.pig.", "pig-databag",
          "sponge.leaky.", "leaky-reducer");

  private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();
  private static volatile Known discovered;

  private ConfigCheck() {}

  /**
   * Parses and validates every option of {@code sets} in {@code conf}, checks each set's rules
   * across its keys, then warns (once per process and key) about the unknown {@code sponge.*} keys
   * of {@code conf}.
   *
   * @return the parsed values, each key parsed once; build settings from them, not from {@code
   *     conf}
   * @throws ConfigException naming the key when a value is invalid
   * @throws IllegalStateException when two options of {@code sets} declare the same key
   */
  public static ParsedConfig validate(Configuration conf, OptionSet... sets) {
    ParsedConfig parsed = new ParsedConfig(index(Arrays.asList(sets)), conf);
    for (OptionSet set : sets) {
      set.checkTogether(parsed);
    }
    for (String warning : unknownKeys(conf, known())) {
      if (WARNED.add(warning)) {
        LOG.warn(warning);
      }
    }
    return parsed;
  }

  /**
   * Every option of {@code sets} by key.
   *
   * @throws IllegalStateException naming the key and both sets when a key is declared twice
   */
  public static Map<String, ConfigOption<?>> index(Collection<OptionSet> sets) {
    Map<String, ConfigOption<?>> options = new LinkedHashMap<>();
    Map<String, String> declaredBy = new TreeMap<>();
    for (OptionSet set : sets) {
      for (ConfigOption<?> option : set.options()) {
        String earlier = declaredBy.putIfAbsent(option.key(), set.title());
        if (earlier != null) {
          throw new IllegalStateException(
              "Configuration key "
                  + option.key()
                  + " is declared twice: in '"
                  + earlier
                  + "' and in '"
                  + set.title()
                  + "'");
        }
        options.put(option.key(), option);
      }
    }
    return options;
  }

  /**
   * One message per {@code sponge.*} key of {@code conf} that no set of {@code known} declares,
   * naming the key and the nearest declared key.
   */
  public static List<String> unknownKeys(Configuration conf, Known known) {
    Map<String, String> unknown = new TreeMap<>();
    for (Map.Entry<String, String> entry : conf) {
      String key = entry.getKey();
      if (key.startsWith(PREFIX)
          && known.judges(key)
          && !known.keys.containsKey(key)
          && !known.deprecated.contains(key)) {
        unknown.put(key, entry.getValue());
      }
    }
    return unknown.entrySet().stream()
        .map(
            e ->
                "Unknown configuration key "
                    + e.getKey()
                    + " (value "
                    + e.getValue()
                    + ") is ignored; did you mean "
                    + nearest(e.getKey(), known.keys.keySet())
                    + "?")
        .collect(Collectors.toList());
  }

  /** The keys of every option set on the classpath, discovered once. */
  public static Known known() {
    Known result = discovered;
    if (result == null) {
      result = new Known(OptionSets.discover());
      discovered = result;
    }
    return result;
  }

  /** The key of {@code keys} fewest single-character edits away from {@code key}. */
  static String nearest(String key, Collection<String> keys) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : keys) {
      int distance = editDistance(key, candidate);
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return best;
  }

  /** Levenshtein distance: insertions, deletions and substitutions of one character. */
  static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }

  /** The declared keys of a process, and the modules whose options it has. */
  public static final class Known {
    private final Map<String, ConfigOption<?>> keys;
    private final Set<String> deprecated = new HashSet<>();
    private final Set<String> modules;

    public Known(Collection<OptionSet> sets) {
      this.keys = index(sets);
      for (ConfigOption<?> option : keys.values()) {
        deprecated.addAll(option.deprecatedKeys());
      }
      this.modules = new HashSet<>();
      for (OptionSet set : sets) {
        modules.add(set.module());
      }
    }

    /** Whether this process can tell that {@code key} is unknown. */
    boolean judges(String key) {
      for (Map.Entry<String, String> namespace : MODULE_NAMESPACES.entrySet()) {
        if (key.startsWith(namespace.getKey())) {
          return modules.contains(namespace.getValue());
        }
      }
      return true;
    }
  }
}
