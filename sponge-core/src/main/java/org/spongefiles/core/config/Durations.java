package org.spongefiles.core.config;

import java.time.Duration;
import java.util.Locale;

/**
 * Durations as operators write them: a number with a unit, {@code 250ms}, {@code 5s}, {@code 2m},
 * {@code 1h}, {@code 1d}; a bare number means milliseconds.
 */
public final class Durations {
  private Durations() {}

  /**
   * Parses a duration.
   *
   * @throws NumberFormatException with the reason when the text is not a duration
   */
  public static Duration parse(String text) {
    String s = text.trim().toLowerCase(Locale.ROOT);
    int split = 0;
    while (split < s.length() && Character.isDigit(s.charAt(split))) {
      split++;
    }
    if (split == 0) {
      throw new NumberFormatException("not a duration (expected e.g. 500ms, 5s, 2m, 1h)");
    }
    long amount = Long.parseLong(s.substring(0, split));
    switch (s.substring(split).trim()) {
      case "":
      case "ms":
        return Duration.ofMillis(amount);
      case "us":
        return Duration.ofNanos(amount * 1000);
      case "ns":
        return Duration.ofNanos(amount);
      case "s":
        return Duration.ofSeconds(amount);
      case "m":
      case "min":
        return Duration.ofMinutes(amount);
      case "h":
        return Duration.ofHours(amount);
      case "d":
        return Duration.ofDays(amount);
      default:
        throw new NumberFormatException(
            "unknown unit '" + s.substring(split) + "' (use ns, us, ms, s, m, h or d)");
    }
  }

  /** Formats in the largest unit that keeps the value whole ({@code PT5S -> 5s}). */
  public static String format(Duration duration) {
    long ms = duration.toMillis();
    if (duration.toNanos() % 1_000_000 != 0) {
      return duration.toNanos() + "ns";
    }
    if (ms != 0 && ms % 86_400_000 == 0) {
      return ms / 86_400_000 + "d";
    }
    if (ms != 0 && ms % 3_600_000 == 0) {
      return ms / 3_600_000 + "h";
    }
    if (ms != 0 && ms % 60_000 == 0) {
      return ms / 60_000 + "m";
    }
    if (ms != 0 && ms % 1000 == 0) {
      return ms / 1000 + "s";
    }
    return ms + "ms";
  }
}
