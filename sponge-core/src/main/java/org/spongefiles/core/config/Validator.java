package org.spongefiles.core.config;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A check on a parsed configuration value. {@link #check} returns null when the value is fine, or
 * the reason it is not ("must be at least 65536"); {@link #describe} is the rule as shown in the
 * generated reference documentation.
 */
public interface Validator<T> {

  /** Returns null when {@code value} is acceptable, otherwise the reason it is not. */
  String check(T value);

  /** The rule in words, for the documentation ("at least 64k"). Empty when there is no rule. */
  String describe();

  static <T> Validator<T> any() {
    return new Validator<T>() {
      @Override
      public String check(T value) {
        return null;
      }

      @Override
      public String describe() {
        return "";
      }
    };
  }

  /** Numbers in {@code [min, max]}. */
  static <N extends Number & Comparable<N>> Validator<N> between(N min, N max) {
    Objects.requireNonNull(min, "min cannot be null");
    Objects.requireNonNull(max, "max cannot be null");
    return new Validator<N>() {
      @Override
      public String check(N value) {
        if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
          return "must be between " + min + " and " + max;
        }
        return null;
      }

      @Override
      public String describe() {
        return "between " + min + " and " + max;
      }
    };
  }

  /** Numbers {@code >= min}. */
  static <N extends Number & Comparable<N>> Validator<N> atLeast(N min) {
    Objects.requireNonNull(min, "min cannot be null");
    return new Validator<N>() {
      @Override
      public String check(N value) {
        return value.compareTo(min) < 0 ? "must be at least " + min : null;
      }

      @Override
      public String describe() {
        return "at least " + min;
      }
    };
  }

  /** Byte sizes in {@code [min, max]}, described with binary suffixes. */
  static Validator<Long> bytesBetween(long min, long max) {
    return new Validator<Long>() {
      @Override
      public String check(Long value) {
        if (value < min || value > max) {
          return "must be between " + ByteSize.format(min) + " and " + ByteSize.format(max);
        }
        return null;
      }

      @Override
      public String describe() {
        return "between " + ByteSize.format(min) + " and " + ByteSize.format(max);
      }
    };
  }

  /** Durations in {@code [min, max]}. */
  static Validator<java.time.Duration> durationBetween(
      java.time.Duration min, java.time.Duration max) {
    return new Validator<java.time.Duration>() {
      @Override
      public String check(java.time.Duration value) {
        if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
          return "must be between " + Durations.format(min) + " and " + Durations.format(max);
        }
        return null;
      }

      @Override
      public String describe() {
        return "between " + Durations.format(min) + " and " + Durations.format(max);
      }
    };
  }

  /** A list whose every element is one of {@code allowed}, with no repetition. */
  static Validator<List<String>> subsetOf(Collection<String> allowed) {
    List<String> choices = List.copyOf(allowed);
    return new Validator<List<String>>() {
      @Override
      public String check(List<String> value) {
        for (int i = 0; i < value.size(); i++) {
          String element = value.get(i);
          if (!choices.contains(element.toLowerCase(Locale.ROOT))) {
            return "'" + element + "' is not one of " + choices;
          }
          for (String earlier : value.subList(0, i)) {
            if (earlier.equalsIgnoreCase(element)) {
              return "'" + element + "' appears twice";
            }
          }
        }
        return null;
      }

      @Override
      public String describe() {
        return "any of " + choices + ", each at most once, in the order to try";
      }
    };
  }

  /** Non-blank strings. */
  static Validator<String> nonBlank() {
    return new Validator<String>() {
      @Override
      public String check(String value) {
        return value.isBlank() ? "must not be empty" : null;
      }

      @Override
      public String describe() {
        return "not empty";
      }
    };
  }
}
