package org.spongefiles.bag.task;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.apache.pig.tools.pigstats.PigStatusReporter;
import org.spongefiles.core.stats.SpongeStats;

/**
 * Reports one task's bag events and SpongeFile statistics as counters of the {@value
 * BagCounter#GROUP} group, through Pig's status reporter. Spills happen in the memory manager's
 * thread and reads in the task's, at any time, so it publishes what grew since the last call; what
 * it cannot publish yet (no task context, as in Pig's front end) waits for the next call.
 */
final class BagCounters {
  private final Map<BagCounter, LongAdder> counts = new EnumMap<>(BagCounter.class);
  private final Map<String, Long> published = new HashMap<>();

  BagCounters() {
    for (BagCounter counter : BagCounter.values()) {
      counts.put(counter, new LongAdder());
    }
  }

  void add(BagCounter counter, long amount) {
    counts.get(counter).add(amount);
  }

  long get(BagCounter counter) {
    return counts.get(counter).sum();
  }

  /** Adds to the task's counters whatever grew since the last call. */
  synchronized void publish(SpongeStats stats) {
    PigStatusReporter reporter = PigStatusReporter.getInstance();
    for (Map.Entry<String, Long> entry : snapshot(stats).entrySet()) {
      long before = published.getOrDefault(entry.getKey(), 0L);
      long delta = entry.getValue() - before;
      if (delta > 0 && reporter.incrCounter(BagCounter.GROUP, entry.getKey(), delta)) {
        published.put(entry.getKey(), entry.getValue());
      }
    }
  }

  private Map<String, Long> snapshot(SpongeStats stats) {
    Map<String, Long> now = new LinkedHashMap<>();
    if (stats != null) {
      now.putAll(stats.asCounters());
    }
    for (Map.Entry<BagCounter, LongAdder> entry : counts.entrySet()) {
      now.put(entry.getKey().name(), entry.getValue().sum());
    }
    return now;
  }
}
