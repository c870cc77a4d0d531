package org.spongefiles.leaky.mapreduce;

import java.util.Map;
import org.apache.hadoop.mapreduce.TaskInputOutputContext;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.leaky.LeakyHashTable;
import org.spongefiles.leaky.ValueBytes;

/**
 * Publishes what a helper's table did as job counters: group {@value #GROUP} (keys, values, bytes,
 * peak heap, overflow, layout, raw or re-serialized values) and, when values overflowed, group
 * {@value #SPONGE_GROUP} with the bytes per SpongeFiles tier.
 */
public final class LeakyCounters {
  /** The helpers' counter group. */
  public static final String GROUP = "SpongeFiles leaky buffer";

  /** SpongeFiles' own counter group, shared with the other modules. */
  public static final String SPONGE_GROUP = "SpongeFiles";

  /** 1 when values were copied as raw bytes, 0 when re-serialized. */
  public static final String RAW_VALUES = "RAW_VALUES";

  private LeakyCounters() {}

  static void publish(
      TaskInputOutputContext<?, ?, ?, ?> context, LeakyHashTable<?, ?> table, ValueBytes used) {
    for (Map.Entry<String, Long> counter : table.stats().asCounters().entrySet()) {
      context.getCounter(GROUP, counter.getKey()).increment(counter.getValue());
    }
    context.getCounter(GROUP, RAW_VALUES).increment(used == ValueBytes.RAW ? 1 : 0);
    SpongeTask task = table.overflowTask();
    if (task != null) {
      for (Map.Entry<String, Long> counter : task.stats().asCounters().entrySet()) {
        context.getCounter(SPONGE_GROUP, counter.getKey()).increment(counter.getValue());
      }
    }
  }
}
