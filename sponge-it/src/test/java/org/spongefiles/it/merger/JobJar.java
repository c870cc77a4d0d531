package org.spongefiles.it.merger;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A job jar for MiniMRYarnCluster, whose task containers see the jars of the test classpath but not
 * its class directories (and for the emulated cluster, whose containers see neither): the
 * directories holding the given classes, in one jar. A class already in a jar of the classpath
 * reaches the containers with it and is left out.
 */
public final class JobJar {
  private JobJar() {}

  public static Path of(Path jar, Class<?>... classes) throws IOException {
    Set<String> written = new HashSet<>();
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      for (Class<?> type : classes) {
        Path root = root(type);
        if (!Files.isDirectory(root)) {
          continue;
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
          files = walk.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
        }
        for (Path file : files) {
          String name = root.relativize(file).toString().replace('\\', '/');
          if (written.add(name)) {
            out.putNextEntry(new JarEntry(name));
            Files.copy(file, (OutputStream) out);
            out.closeEntry();
          }
        }
      }
    }
    return jar;
  }

  private static Path root(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
