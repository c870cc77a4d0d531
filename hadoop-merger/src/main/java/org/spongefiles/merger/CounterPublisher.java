package org.spongefiles.merger;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.mapred.Reporter;
import org.spongefiles.core.stats.SpongeStats;

/**
 * Counts the merger's events and reports them, with the task's SpongeFile statistics, as Hadoop
 * counters of the {@value MergerCounter#GROUP} group. Reading continues after the shuffle (the
 * final merge feeds the reducer), so it publishes deltas, as often as asked.
 */
final class CounterPublisher {
  private final Reporter reporter;
  private final SpongeStats stats;
  private final Map<MergerCounter, LongAdder> counts = new EnumMap<>(MergerCounter.class);
  private final Map<String, Long> published = new HashMap<>();

  CounterPublisher(Reporter reporter, SpongeStats stats) {
    this.reporter = reporter;
    this.stats = stats;
    for (MergerCounter counter : MergerCounter.values()) {
      counts.put(counter, new LongAdder());
    }
  }

  void add(MergerCounter counter, long amount) {
    counts.get(counter).add(amount);
  }

  void increment(MergerCounter counter) {
    add(counter, 1);
  }

  long get(MergerCounter counter) {
    return counts.get(counter).sum();
  }

  /** Adds to the task's counters whatever grew since the last call. */
  synchronized void publish() {
    for (Map.Entry<String, Long> entry : snapshot().entrySet()) {
      long before = published.getOrDefault(entry.getKey(), -1L);
      if (before != entry.getValue()) {
        reporter.incrCounter(
            MergerCounter.GROUP, entry.getKey(), entry.getValue() - Math.max(0, before));
        published.put(entry.getKey(), entry.getValue());
      }
    }
  }

  private Map<String, Long> snapshot() {
    Map<String, Long> now = new LinkedHashMap<>(stats.asCounters());
    for (Map.Entry<MergerCounter, LongAdder> entry : counts.entrySet()) {
      if (entry.getKey() != MergerCounter.FALLBACK_TO_HADOOP_MERGER) {
        now.put(entry.getKey().name(), entry.getValue().sum());
      }
    }
    return now;
  }
}
