package org.spongefiles.leaky;

import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.config.ByteSize;
import org.spongefiles.core.config.ConfigException;

/** The {@code sponge.leaky.*} values one table runs with, read and cross-checked once. */
final class LeakySettings {
  final long budget;
  final Layout layout;
  final int autoLoadFactor;
  final int autoSample;
  final int pageSize;

  LeakySettings(Configuration conf) {
    long configured = LeakyOptions.BUDGET.get(conf);
    this.budget =
        configured > 0
            ? configured
            : (long) (Runtime.getRuntime().maxMemory() * LeakyOptions.BUDGET_FRACTION.get(conf));
    this.layout = LeakyOptions.LAYOUT.get(conf);
    this.autoLoadFactor = LeakyOptions.AUTO_LOAD_FACTOR.get(conf);
    this.autoSample = LeakyOptions.AUTO_SAMPLE.get(conf);
    this.pageSize = (int) (long) LeakyOptions.PAGE_SIZE.get(conf);
    if (budget < 2L * pageSize) {
      throw new ConfigException(
          LeakyOptions.BUDGET.key(),
          ByteSize.format(budget),
          "must hold at least two pages of "
              + LeakyOptions.PAGE_SIZE.key()
              + " ("
              + ByteSize.format(pageSize)
              + ")");
    }
  }
}
