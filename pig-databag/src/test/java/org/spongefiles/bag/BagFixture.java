package org.spongefiles.bag;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.bag.task.BagTask;
import org.spongefiles.bag.task.TaskSponges;
import org.spongefiles.core.stats.SpongeStats;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestDirs;

/**
 * A private pool and disk directory, a task registry over them and a factory, for one test. The
 * bags created by the test's thread belong to the registry's process-wide task.
 */
final class BagFixture implements AutoCloseable {
  final Path poolDir = TestDirs.newShmDir("pigbag");
  final Path diskDir;
  final Configuration conf;
  final TaskSponges tasks;
  final SpongeBagFactory factory;

  BagFixture() throws IOException {
    this(64L << 20, new Configuration(false));
  }

  /** A pool of {@code poolBytes} bytes (256 KiB chunks), plus {@code extra} settings. */
  BagFixture(long poolBytes, Configuration extra) throws IOException {
    diskDir = Files.createTempDirectory("pigbag-disk-");
    conf = SpongeTestConf.of(poolDir, diskDir, poolBytes, 256L << 10);
    for (java.util.Map.Entry<String, String> entry : extra) {
      conf.set(entry.getKey(), entry.getValue());
    }
    tasks = new TaskSponges(conf, PigBagOptions::settings);
    factory = new SpongeBagFactory(tasks);
  }

  /** The task the bags of this thread belong to. */
  BagTask task() {
    return tasks.current();
  }

  SpongeStats stats() {
    return task().stats();
  }

  @Override
  public void close() throws IOException {
    try {
      tasks.close();
    } finally {
      TestDirs.deleteTree(poolDir);
      TestDirs.deleteTree(diskDir);
    }
  }
}
