package org.spongefiles.core.config;

import java.util.List;

/**
 * The options one module declares, published through {@code META-INF/services} so the reference
 * documentation ({@code docs/configuration.md}) is generated from every module on the classpath.
 */
public interface OptionSet {

  /** Heading of this set in the reference: module, colon, subject ("sponge-core: ..."). */
  String title();

  /** The module declaring the set: the title up to its colon ("sponge-core"). */
  default String module() {
    int colon = title().indexOf(':');
    return colon < 0 ? title() : title().substring(0, colon);
  }

  /** One paragraph on who sets these keys and where. */
  String summary();

  /** The options, in the order they should be documented. */
  List<ConfigOption<?>> options();

  /**
   * Checks the rules that tie keys of this set together, on the values {@link ConfigCheck#validate}
   * parsed, after every key parsed on its own; nothing by default.
   *
   * @throws ConfigException naming a key and its value when the values do not fit together
   */
  default void checkTogether(ConfigValues values) {}

  /** Position of this set in the reference; lower comes first. */
  default int order() {
    return 100;
  }
}
