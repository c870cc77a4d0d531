package org.spongefiles.emulator.cluster;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The Hadoop release under test as jars, taken from a classpath that holds {@code
 * hadoop-minicluster} and its dependencies (a test JVM's): every jar but SpongeFiles' own (the
 * cluster gets those from the distribution only), Pig's (users bring their own) and the test jars,
 * except {@code hadoop-hdfs}'s, the only Maven artifact holding the NameNode's {@code webapps/hdfs}
 * (without it the NameNode's HTTP server does not start).
 */
public final class HadoopJars {
  private HadoopJars() {}

  public static List<Path> fromClassPath(String classPath) {
    List<Path> jars = new ArrayList<>();
    for (String entry : classPath.split(File.pathSeparator)) {
      Path path = Path.of(entry);
      String name = path.getFileName() == null ? "" : path.getFileName().toString();
      String unix = entry.replace('\\', '/');
      boolean testJar = name.endsWith("-tests.jar") && !name.startsWith("hadoop-hdfs-");
      if (name.endsWith(".jar")
          && Files.isRegularFile(path)
          && !unix.contains("/org/spongefiles/")
          && !name.startsWith("sponge-")
          && !unix.contains("/org/apache/pig/")
          && !name.startsWith("hadoop-minicluster-")
          && !unix.contains("/org/apache/maven/surefire/")
          && !testJar) {
        jars.add(path);
      }
    }
    return jars;
  }

  /** {@link #fromClassPath} of this JVM's {@code java.class.path}. */
  public static List<Path> ofThisJvm() {
    return fromClassPath(System.getProperty("java.class.path"));
  }
}
