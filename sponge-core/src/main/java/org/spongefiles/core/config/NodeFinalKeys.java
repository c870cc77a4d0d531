package org.spongefiles.core.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code sponge.*} keys that a node's Hadoop site files mark {@code final}, which win over a
 * task's own configuration, as they do in a MapReduce task's JobConf.
 *
 * <p>A MapReduce task's JobConf loads its node's {@code core-site.xml}, {@code mapred-site.xml} and
 * {@code yarn-site.xml} (from {@code HADOOP_CONF_DIR}, which the NodeManager hands its containers
 * and puts on their classpath) under the job's values, so a key final there beats the job's. A Tez
 * task builds its configuration from the DAG's payload alone: without this class the node's final
 * {@code sponge.pool.dir} never reached it. The same three files, in JobConf's order (a key final
 * in an earlier file stays), so that one rule holds for both engines; for a MapReduce task the
 * values are those its JobConf already has.
 */
public final class NodeFinalKeys {
  /** The environment variable naming the node's Hadoop configuration directory. */
  public static final String CONF_DIR_VARIABLE = "HADOOP_CONF_DIR";

  /** The site files a MapReduce task's JobConf loads, in its order. */
  static final List<String> SITE_FILES =
      List.of("core-site.xml", "mapred-site.xml", "yarn-site.xml");

  private static final Logger LOG = LoggerFactory.getLogger(NodeFinalKeys.class);
  private static final String PREFIX = "sponge.";
  private static final NodeFinalKeys NONE = new NodeFinalKeys(Map.of(), Map.of());
  private static final Set<String> LOGGED = ConcurrentHashMap.newKeySet();

  private final Map<String, String> values;
  private final Map<String, Path> sources;

  private NodeFinalKeys(Map<String, String> values, Map<String, Path> sources) {
    this.values = Collections.unmodifiableMap(values);
    this.sources = Collections.unmodifiableMap(sources);
  }

  /**
   * The final keys of the directory named by {@value #CONF_DIR_VARIABLE}, none when it is not set.
   * The one place a task looks the variable up.
   */
  public static NodeFinalKeys fromEnvironment() {
    String dir = System.getenv(CONF_DIR_VARIABLE);
    return dir == null || dir.isBlank() ? NONE : of(Path.of(dir.trim()));
  }

  /**
   * The final {@code sponge.*} keys of the site files in {@code confDir}; none from a missing
   * directory or file.
   *
   * @throws IllegalStateException naming the file when a site file there cannot be read or parsed
   */
  public static NodeFinalKeys of(Path confDir) {
    Map<String, String> values = new LinkedHashMap<>();
    Map<String, Path> sources = new LinkedHashMap<>();
    for (String name : SITE_FILES) {
      Path file = confDir.resolve(name);
      if (!Files.isRegularFile(file)) {
        continue;
      }
      Configuration site = parse(file);
      for (String key : new TreeSet<>(site.getFinalParameters())) {
        String value = site.getRaw(key);
        // A key final in an earlier file stays, as Hadoop keeps it.
        if (key.startsWith(PREFIX) && value != null && !values.containsKey(key)) {
          values.put(key, value);
          sources.put(key, file);
        }
      }
    }
    return values.isEmpty() ? NONE : new NodeFinalKeys(values, sources);
  }

  /** {@code file} loaded on its own; its final keys are known once it is loaded. */
  private static Configuration parse(Path file) {
    Configuration site = new Configuration(false);
    site.addResource(new org.apache.hadoop.fs.Path(file.toAbsolutePath().toUri()));
    try {
      site.size();
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "Cannot parse "
              + file
              + ", a site file of the node's "
              + CONF_DIR_VARIABLE
              + " whose final sponge.* keys a task takes: "
              + rootMessage(e),
          e);
    }
    return site;
  }

  /** The final keys and their values as the node's files hold them (variables not expanded). */
  public Map<String, String> values() {
    return values;
  }

  /** The site file each final key came from. */
  public Map<String, Path> sources() {
    return sources;
  }

  /**
   * {@code conf} with the node's final keys set over its own values: {@code conf} itself when there
   * are none, else a copy. Says once per process, at INFO, which keys came from which file.
   */
  public Configuration over(Configuration conf) {
    if (values.isEmpty()) {
      return conf;
    }
    Configuration merged = new Configuration(conf);
    Map<Path, StringBuilder> byFile = new LinkedHashMap<>();
    values.forEach(
        (key, value) -> {
          Path file = sources.get(key);
          merged.set(key, value, file + " (final on this node)");
          // Keys only: a value may be a secret (sponge.auth.secret), and the file holds them.
          StringBuilder keys = byFile.computeIfAbsent(file, f -> new StringBuilder());
          keys.append(keys.length() == 0 ? "" : ", ").append(key);
        });
    byFile.forEach(
        (file, keys) -> {
          String message = keys + " from " + file + " (final there) win over the task's values";
          if (LOGGED.add(message)) {
            LOG.info(message);
          }
        });
    return merged;
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.toString();
  }

  @Override
  public String toString() {
    return "NodeFinalKeys" + values.keySet();
  }
}
