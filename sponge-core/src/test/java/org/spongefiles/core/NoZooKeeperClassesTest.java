package org.spongefiles.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.spongefiles.testkit.TestDirs;

/**
 * Hadoop's task classpath has no ZooKeeper: a task whose tracker does not answer skips the
 * ZooKeeper fallback and says so once, naming the missing class, instead of failing with a
 * NoClassDefFoundError.
 */
class NoZooKeeperClassesTest {
  private Path pool;
  private Path disk;

  @BeforeEach
  void setUp() {
    pool = TestDirs.newShmDir("nozk-pool");
    disk = TestDirs.newShmDir("nozk-disk");
  }

  @AfterEach
  void tearDown() {
    TestDirs.deleteTree(pool);
    TestDirs.deleteTree(disk);
  }

  @Test
  void withoutZooKeeperClassesTheFallbackIsSkippedWithOneWarning() throws Exception {
    List<String> classpath = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      String name = Path.of(entry).getFileName().toString();
      if (!name.startsWith("zookeeper") && !name.startsWith("curator")) {
        classpath.add(entry);
      }
    }
    assertThat(classpath)
        .hasSizeLessThan(System.getProperty("java.class.path").split(File.pathSeparator).length);
    int dead;
    try (ServerSocket socket = new ServerSocket(0)) {
      dead = socket.getLocalPort();
    }
    Path stderr = Files.createTempFile("nozk", ".err");
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m",
                "-cp",
                String.join(File.pathSeparator, classpath),
                NoZooKeeperChild.class.getName(),
                pool.toString(),
                disk.toString(),
                "127.0.0.1:" + dead,
                "127.0.0.1:" + dead)
            .redirectError(stderr.toFile())
            .start();
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String errors = Files.readString(stderr);
    Files.delete(stderr);
    assertThat(child.exitValue()).as(output + errors).isZero();

    List<String> warnings =
        output
            .lines()
            .filter(line -> line.contains("No remote memory"))
            .collect(Collectors.toList());
    assertThat(warnings).as(output).hasSize(1);
    assertThat(warnings.get(0))
        .contains("(NO_ZOOKEEPER_CLASSES)")
        .contains("sponge.tracker.addresses=127.0.0.1:" + dead)
        .contains("org.apache.zookeeper.ZooKeeper is not on the task's classpath")
        .contains("its chunks go to the pool, then the disk tiers instead");
    assertThat(output + errors).doesNotContain("NoClassDefFoundError");
    assertThat(output)
        .contains("REMOTE_UNAVAILABLE=1")
        .contains("REMOTE_UNAVAILABLE_NO_ZOOKEEPER_CLASSES=1")
        .contains("REMOTE_BYTES_WRITTEN=0");
  }
}
