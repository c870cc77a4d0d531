package org.spongefiles.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The distribution as a user gets it: sponge-dist's tarball and its .sha512, which the build copies
 * into {@code sponge.dist.dir} (target/dist), unpacked once per test JVM with {@code tar}, so file
 * modes are the tarball's.
 */
public final class Distribution {
  private static Path home;

  private Distribution() {}

  /** The directory holding {@code spongefiles-<version>-bin.tar.gz} and its {@code .sha512}. */
  public static Path dir() {
    return Path.of(System.getProperty("sponge.dist.dir", "target/dist"));
  }

  /** {@code spongefiles-<version>-bin.tar.gz}. */
  public static Path tarball() throws IOException {
    Path dir = dir();
    try (Stream<Path> list = Files.list(dir)) {
      return list.filter(p -> p.getFileName().toString().matches("spongefiles-.*-bin\\.tar\\.gz"))
          .findFirst()
          .orElseThrow(() -> new AssertionError("no spongefiles-*-bin.tar.gz in " + dir));
    }
  }

  /** The unpacked top directory, {@code spongefiles-<version>/}, shared by the tests of a JVM. */
  public static synchronized Path home() throws IOException, InterruptedException {
    if (home == null) {
      home = unpack(tarball(), dir().resolve("unpacked"));
    }
    return home;
  }

  /** Unpacks {@code tarball} into a fresh {@code into} and returns its one top directory. */
  public static Path unpack(Path tarball, Path into) throws IOException, InterruptedException {
    if (Files.exists(into)) {
      try (Stream<Path> walk = Files.walk(into)) {
        for (Path p : (Iterable<Path>) walk.sorted((a, b) -> b.compareTo(a))::iterator) {
          Files.delete(p);
        }
      }
    }
    Files.createDirectories(into);
    Process tar =
        new ProcessBuilder("tar", "xzf", tarball.toAbsolutePath().toString())
            .directory(into.toFile())
            .redirectErrorStream(true)
            .start();
    String output = new String(tar.getInputStream().readAllBytes());
    if (!tar.waitFor(60, TimeUnit.SECONDS) || tar.exitValue() != 0) {
      throw new IOException("tar xzf " + tarball + " failed: " + output);
    }
    try (Stream<Path> list = Files.list(into)) {
      return list.findFirst().orElseThrow(() -> new IOException(tarball + " is empty"));
    }
  }
}
