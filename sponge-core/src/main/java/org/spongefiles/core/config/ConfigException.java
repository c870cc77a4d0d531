package org.spongefiles.core.config;

/**
 * A configuration value that cannot be used. The message always has the form {@code Invalid value X
 * for configuration Y: reason}, so the user can find the key in mapred-site.xml, a Pig script or
 * sponge-site.xml and knows what to change.
 */
public class ConfigException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String key;
  private final String value;

  public ConfigException(String key, Object value, String reason) {
    super("Invalid value " + value + " for configuration " + key + ": " + reason);
    this.key = key;
    this.value = String.valueOf(value);
  }

  /** The configuration key whose value was refused. */
  public String key() {
    return key;
  }

  /** The refused value, as the user wrote it. */
  public String value() {
    return value;
  }
}
