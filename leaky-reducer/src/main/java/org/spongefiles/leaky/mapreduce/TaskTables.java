package org.spongefiles.leaky.mapreduce;

import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.spongefiles.leaky.LeakyHashTable;

/** The leaky table of a reduce task: configured from the job, its overflow owned by the attempt. */
final class TaskTables {
  private TaskTables() {}

  static <K extends Writable, V extends Writable> LeakyHashTable<K, V> open(
      TaskAttemptContext context, Class<K> keyClass, Class<V> valueClass) {
    return LeakyHashTable.builder(keyClass, valueClass)
        .conf(context.getConfiguration())
        .taskAttempt(context.getTaskAttemptID().toString())
        .build();
  }
}
