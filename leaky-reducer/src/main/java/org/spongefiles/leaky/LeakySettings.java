package org.spongefiles.leaky;

import org.spongefiles.core.config.ConfigValues;

/** The {@code sponge.leaky.*} values one table runs with, parsed and cross-checked once. */
final class LeakySettings {
  final long budget;
  final Layout layout;
  final int autoLoadFactor;
  final int autoSample;
  final int pageSize;

  /** The settings of {@code values}, which {@link LeakyOptions#checkTogether} checked. */
  LeakySettings(ConfigValues values) {
    this.budget = LeakyOptions.budget(values);
    this.layout = values.get(LeakyOptions.LAYOUT);
    this.autoLoadFactor = values.get(LeakyOptions.AUTO_LOAD_FACTOR);
    this.autoSample = values.get(LeakyOptions.AUTO_SAMPLE);
    this.pageSize = values.get(LeakyOptions.PAGE_SIZE).intValue();
  }
}
