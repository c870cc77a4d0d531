package org.spongefiles.leaky.mapreduce;

import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.spongefiles.core.config.ParsedConfig;
import org.spongefiles.leaky.LeakyHashTable;

/**
 * The leaky table of a reduce task: configured from the job, its overflow owned by the attempt,
 * built from the keys the helper parsed once ({@link LeakyHashTable#parse}) with its own.
 */
final class TaskTables {
  private TaskTables() {}

  static <K extends Writable, V extends Writable> LeakyHashTable<K, V> open(
      TaskAttemptContext context, ParsedConfig values, Class<K> keyClass, Class<V> valueClass) {
    return LeakyHashTable.builder(keyClass, valueClass)
        .conf(context.getConfiguration())
        .parsed(values)
        .taskAttempt(context.getTaskAttemptID().toString())
        .build();
  }
}
