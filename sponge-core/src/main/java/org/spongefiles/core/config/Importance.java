package org.spongefiles.core.config;

/**
 * How much a key matters to someone setting SpongeFiles up, as shown in the reference: a {@code
 * HIGH} key is one most clusters set or must check, a {@code LOW} key is tuning rarely worth
 * touching.
 */
public enum Importance {
  HIGH,
  MEDIUM,
  LOW;

  /** The word shown in the reference ({@code high}). */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
