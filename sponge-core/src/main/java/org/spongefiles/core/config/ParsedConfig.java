package org.spongefiles.core.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;

/**
 * The parsed and validated values of every option of some option sets, read from a {@link
 * Configuration} once (by {@link ConfigCheck#validate}) and immutable after: the settings of a task
 * or daemon are built from this view, so no key is parsed twice.
 */
public final class ParsedConfig implements ConfigValues {
  private final Map<String, ConfigOption<?>> options;
  private final Map<String, Object> values;

  ParsedConfig(Map<String, ConfigOption<?>> options, Configuration conf) {
    Map<String, Object> parsed = new LinkedHashMap<>();
    for (ConfigOption<?> option : options.values()) {
      parsed.put(option.key(), option.get(conf));
    }
    this.options = Map.copyOf(options);
    this.values = Map.copyOf(parsed);
  }

  /**
   * The parsed value of {@code option}.
   *
   * @throws IllegalArgumentException when {@code option} is not one of the sets this view was
   *     parsed for: the caller forgot a set in {@link ConfigCheck#validate}
   */
  @Override
  public <T> T get(ConfigOption<T> option) {
    if (options.get(option.key()) != option) {
      throw new IllegalArgumentException(
          "Configuration key "
              + option.key()
              + " was not parsed here; the parsed keys are "
              + new TreeSet<>(options.keySet()));
    }
    @SuppressWarnings("unchecked")
    T value = (T) values.get(option.key());
    return value;
  }

  /** Whether {@code option} was parsed into this view. */
  public boolean has(ConfigOption<?> option) {
    return options.get(option.key()) == option;
  }

  /** Whether every option of {@code set} was parsed into this view. */
  public boolean covers(OptionSet set) {
    return set.options().stream().allMatch(this::has);
  }

  @Override
  public String toString() {
    return "ParsedConfig" + new TreeSet<>(options.keySet());
  }
}
