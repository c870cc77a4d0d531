package org.spongefiles.core.config;

import org.apache.hadoop.conf.Configuration;

/**
 * Typed values of configuration options. A process reads them from the {@link ParsedConfig} that
 * {@link ConfigCheck#validate} returns, where every key was parsed once; {@link #reading} is for
 * tools and tests that hold a bare {@link Configuration} and read a few keys of it.
 */
public interface ConfigValues {

  /**
   * The value of {@code option}.
   *
   * @throws ConfigException naming the key and value when the value is unusable
   */
  <T> T get(ConfigOption<T> option);

  /** Values parsed from {@code conf} on each {@link #get}, as {@link ConfigOption#get} does. */
  static ConfigValues reading(Configuration conf) {
    return new ConfigValues() {
      @Override
      public <T> T get(ConfigOption<T> option) {
        return option.get(conf);
      }
    };
  }
}
