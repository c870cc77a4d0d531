package org.spongefiles.bench.transfer;

import java.util.Arrays;
import java.util.Locale;

/** Per-operation times of one measure: mean, median and 99th percentile. */
public final class Timing {
  private final String name;
  private final long[] nanos;
  private int count;

  public Timing(String name, int capacity) {
    this.name = name;
    this.nanos = new long[capacity];
  }

  public void add(long elapsedNanos) {
    nanos[count++] = elapsedNanos;
  }

  public String name() {
    return name;
  }

  public double meanMicros() {
    long sum = 0;
    for (int i = 0; i < count; i++) {
      sum += nanos[i];
    }
    return count == 0 ? 0 : sum / (double) count / 1000.0;
  }

  public double percentileMicros(double p) {
    if (count == 0) {
      return 0;
    }
    long[] sorted = Arrays.copyOf(nanos, count);
    Arrays.sort(sorted);
    int index = (int) Math.min(count - 1, Math.round(p / 100.0 * (count - 1)));
    return sorted[index] / 1000.0;
  }

  public double medianMicros() {
    return percentileMicros(50);
  }

  /** {@code this} mean over {@code baseline} mean. */
  public double ratioTo(Timing baseline) {
    return meanMicros() / baseline.meanMicros();
  }

  public String summary() {
    return String.format(
        Locale.ROOT,
        "%s: mean %.1f us, median %.1f us, p99 %.1f us over %d",
        name,
        meanMicros(),
        medianMicros(),
        percentileMicros(99),
        count);
  }
}
