package org.spongefiles.testkit;

import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;

/** Hadoop configurations for tests: a private pool and private disk directories. */
public final class SpongeTestConf {
  private SpongeTestConf() {}

  /**
   * A configuration whose pool lives in {@code poolDir} ({@code poolBytes} bytes of {@code
   * chunkBytes} chunks) and whose disk chunks go to {@code diskDir}, with no disk reserve.
   */
  public static Configuration of(Path poolDir, Path diskDir, long poolBytes, long chunkBytes) {
    Configuration conf = new Configuration(false);
    conf.set("sponge.pool.dir", poolDir.toString());
    conf.set("sponge.pool.name", "test-pool");
    conf.set("sponge.pool.size", Long.toString(poolBytes));
    conf.set("sponge.pool.segment.size", Long.toString(Math.min(poolBytes, 64L << 20)));
    conf.set("sponge.pool.permissions", "rw-------");
    conf.set("sponge.chunk.size", Long.toString(chunkBytes));
    conf.set("sponge.checksum.block.size", Long.toString(Math.min(chunkBytes, 16L << 10)));
    conf.set("sponge.disk.dirs", diskDir.toString());
    conf.set("sponge.disk.reserve", "0");
    return conf;
  }
}
