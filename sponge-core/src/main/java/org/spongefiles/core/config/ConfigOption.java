package org.spongefiles.core.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One configuration key, declared once with its type, default, validation rule and description, and
 * read from a Hadoop {@link Configuration}. Reading a value that does not parse or validate throws
 * a {@link ConfigException} naming the key and the value.
 *
 * <pre>{@code
 * static final ConfigOption<Long> CHUNK_SIZE =
 *     ConfigOption.bytes("sponge.chunk.size", 1 << 20)
 *         .validate(Validator.bytesBetween(64 << 10, 1 << 30))
 *         .describe("Size of one in-memory chunk.");
 * long chunk = CHUNK_SIZE.get(conf);
 * }</pre>
 *
 * @param <T> the parsed type
 */
public final class ConfigOption<T> {
  private static final Logger LOG = LoggerFactory.getLogger(ConfigOption.class);
  private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

  private final String key;
  private final String typeName;
  private final T defaultValue;
  private final Function<String, T> parser;
  private final Function<T, String> formatter;
  private final Validator<T> validator;
  private final String description;
  private final Importance importance;
  private final List<String> deprecatedKeys;

  private ConfigOption(
      String key,
      String typeName,
      T defaultValue,
      Function<String, T> parser,
      Function<T, String> formatter,
      Validator<T> validator,
      String description,
      Importance importance,
      List<String> deprecatedKeys) {
    this.key = Objects.requireNonNull(key, "key cannot be null");
    this.typeName = typeName;
    this.defaultValue = Objects.requireNonNull(defaultValue, "defaultValue cannot be null");
    this.parser = parser;
    this.formatter = formatter;
    this.validator = validator;
    this.description = description;
    this.importance = importance;
    this.deprecatedKeys = deprecatedKeys;
  }

  /** A byte size such as {@code 1m}; see {@link ByteSize}. */
  public static ConfigOption<Long> bytes(String key, long defaultValue) {
    return new ConfigOption<>(
        key,
        "bytes",
        defaultValue,
        ByteSize::parse,
        ByteSize::format,
        Validator.any(),
        "",
        Importance.MEDIUM,
        List.of());
  }

  /** A duration such as {@code 5s}; see {@link Durations}. */
  public static ConfigOption<Duration> duration(String key, Duration defaultValue) {
    return new ConfigOption<>(
        key,
        "duration",
        defaultValue,
        Durations::parse,
        Durations::format,
        Validator.any(),
        "",
        Importance.MEDIUM,
        List.of());
  }

  public static ConfigOption<Integer> integer(String key, int defaultValue) {
    return new ConfigOption<>(
        key,
        "int",
        defaultValue,
        s -> Integer.parseInt(s.trim()),
        String::valueOf,
        Validator.any(),
        "",
        Importance.MEDIUM,
        List.of());
  }

  public static ConfigOption<Double> decimal(String key, double defaultValue) {
    return new ConfigOption<>(
        key,
        "double",
        defaultValue,
        s -> Double.parseDouble(s.trim()),
        String::valueOf,
        Validator.any(),
        "",
        Importance.MEDIUM,
        List.of());
  }

  public static ConfigOption<Boolean> bool(String key, boolean defaultValue) {
    return new ConfigOption<>(
        key,
        "boolean",
        defaultValue,
        ConfigOption::parseBoolean,
        String::valueOf,
        Validator.any(),
        "",
        Importance.MEDIUM,
        List.of());
  }

  public static ConfigOption<String> string(String key, String defaultValue) {
    return new ConfigOption<>(
        key,
        "string",
        defaultValue,
        String::trim,
        s -> s,
        Validator.any(),
        "",
        Importance.MEDIUM,
        List.of());
  }

  /** A comma-separated list; blanks around elements are ignored, empty elements dropped. */
  public static ConfigOption<List<String>> list(String key, List<String> defaultValue) {
    return new ConfigOption<>(
        key,
        "list",
        List.copyOf(defaultValue),
        ConfigOption::parseList,
        l -> String.join(",", l),
        Validator.any(),
        "",
        Importance.MEDIUM,
        List.of());
  }

  /** One of an enum's constants, written case-insensitively. */
  public static <E extends Enum<E>> ConfigOption<E> choice(String key, E defaultValue) {
    Class<E> type = defaultValue.getDeclaringClass();
    String names =
        Arrays.stream(type.getEnumConstants())
            .map(e -> e.name().toLowerCase(Locale.ROOT))
            .collect(Collectors.joining(", "));
    return new ConfigOption<>(
        key,
        "one of: " + names,
        defaultValue,
        s -> {
          try {
            return Enum.valueOf(type, s.trim().toUpperCase(Locale.ROOT));
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("must be one of " + names);
          }
        },
        e -> e.name().toLowerCase(Locale.ROOT),
        Validator.any(),
        "",
        Importance.MEDIUM,
        List.of());
  }

  /** Returns a copy of this option with a validation rule. */
  public ConfigOption<T> validate(Validator<T> rule) {
    String problem = rule.check(defaultValue);
    if (problem != null) {
      throw new IllegalArgumentException("default of " + key + " is invalid: " + problem);
    }
    return copy(rule, description, importance, deprecatedKeys);
  }

  /** Returns a copy of this option with its documentation. */
  public ConfigOption<T> describe(String text) {
    return copy(validator, text, importance, deprecatedKeys);
  }

  /** Returns a copy of this option ranked {@code level} in the reference (default medium). */
  public ConfigOption<T> importance(Importance level) {
    return copy(validator, description, level, deprecatedKeys);
  }

  /**
   * Returns a copy of this option that also reads {@code oldKey}, a name it had before: when only
   * the old key is set its value is used, and a warning naming both keys is logged once per
   * process; when both are set the new key wins and the old one is warned about as ignored.
   */
  public ConfigOption<T> deprecatedKey(String oldKey) {
    List<String> keys = new ArrayList<>(deprecatedKeys);
    keys.add(Objects.requireNonNull(oldKey, "oldKey cannot be null"));
    return copy(validator, description, importance, List.copyOf(keys));
  }

  private ConfigOption<T> copy(
      Validator<T> rule, String text, Importance level, List<String> oldKeys) {
    return new ConfigOption<>(
        key, typeName, defaultValue, parser, formatter, rule, text, level, oldKeys);
  }

  /**
   * Reads this option from {@code conf}: the default when the key (and every deprecated name of it)
   * is unset or blank, otherwise the parsed and validated value.
   *
   * @throws ConfigException naming the key and value when the value is unusable
   */
  public T get(Configuration conf) {
    String raw = conf.getTrimmed(key);
    boolean set = raw != null && !raw.isEmpty();
    for (String old : deprecatedKeys) {
      String oldRaw = conf.getTrimmed(old);
      if (oldRaw == null || oldRaw.isEmpty()) {
        continue;
      }
      if (set) {
        warnOnce(
            "Configuration key "
                + old
                + " is deprecated and ignored (value "
                + oldRaw
                + "): "
                + key
                + " is set (value "
                + raw
                + ")");
      } else {
        warnOnce(
            "Configuration key "
                + old
                + " is deprecated; use "
                + key
                + " (value "
                + oldRaw
                + " taken)");
        return parse(old, oldRaw);
      }
    }
    return set ? parse(raw) : defaultValue;
  }

  private static void warnOnce(String message) {
    if (WARNED.add(message)) {
      LOG.warn(message);
    }
  }

  /** Parses and validates one textual value as this option would. */
  public T parse(String raw) {
    return parse(key, raw);
  }

  private T parse(String name, String raw) {
    T value;
    try {
      value = parser.apply(raw);
    } catch (RuntimeException e) {
      String reason = e.getMessage() == null ? "not a valid " + typeName : e.getMessage();
      if (e instanceof NumberFormatException && reason.startsWith("For input string")) {
        reason = "not a valid " + typeName;
      }
      throw new ConfigException(name, raw, reason);
    }
    String problem = validator.check(value);
    if (problem != null) {
      throw new ConfigException(name, raw, problem);
    }
    return value;
  }

  /** Writes {@code value} into {@code conf} in this option's textual form. */
  public void set(Configuration conf, T value) {
    conf.set(key, formatter.apply(value));
  }

  public String key() {
    return key;
  }

  /** The names this option had before, still read with a warning; empty for most options. */
  public List<String> deprecatedKeys() {
    return deprecatedKeys;
  }

  public String typeName() {
    return typeName;
  }

  public T defaultValue() {
    return defaultValue;
  }

  /** The default as a user would write it ({@code 1m}, {@code 5s}). */
  public String defaultText() {
    return formatter.apply(defaultValue);
  }

  public String description() {
    return description;
  }

  public Importance importance() {
    return importance;
  }

  /** The validation rule in words, empty when there is none. */
  public String rule() {
    return validator.describe();
  }

  @Override
  public String toString() {
    return key;
  }

  private static Boolean parseBoolean(String s) {
    String v = s.trim().toLowerCase(Locale.ROOT);
    if (v.equals("true")) {
      return Boolean.TRUE;
    }
    if (v.equals("false")) {
      return Boolean.FALSE;
    }
    throw new IllegalArgumentException("must be true or false");
  }

  private static List<String> parseList(String s) {
    return Arrays.stream(s.split(","))
        .map(String::trim)
        .filter(e -> !e.isEmpty())
        .collect(Collectors.toUnmodifiableList());
  }
}
