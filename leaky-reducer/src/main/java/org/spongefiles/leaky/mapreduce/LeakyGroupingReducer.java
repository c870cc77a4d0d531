package org.spongefiles.leaky.mapreduce;

import java.io.IOException;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.Reducer;
import org.spongefiles.core.config.ParsedConfig;
import org.spongefiles.leaky.Group;
import org.spongefiles.leaky.LeakyHashTable;
import org.spongefiles.leaky.LeakyOptions;
import org.spongefiles.leaky.ValueBytes;

/**
 * Groups the values of each reduce call by a sub-key, when the job shuffles by a coarser key (day
 * to keywords under a month key, IP subnet to country codes under a network key): the values of a
 * call go into a {@link LeakyHashTable} keyed by sub-key, as bytes, and each sub-group is handed to
 * {@link #reduceGroup} once the call's input is read. The map output value class is a {@link
 * SubKeyed} subclass.
 *
 * <pre>{@code
 * public static class SubnetCountries
 *     extends LeakyGroupingReducer<IntWritable, Text, Text, Text, Text> {
 *   protected void reduceGroup(IntWritable network, Text subnet, Iterable<Text> countries,
 *       Context context) throws IOException, InterruptedException {
 *     SortedSet<String> distinct = new TreeSet<>();
 *     for (Text country : countries) {
 *       distinct.add(country.toString());
 *     }
 *     context.write(subnet, new Text(String.join(",", distinct)));
 *   }
 * }
 * }</pre>
 *
 * <p>Configured by {@code sponge.leaky.*}; overflow SpongeFiles belong to the task attempt.
 */
public abstract class LeakyGroupingReducer<
        KIN extends Writable, S extends Writable, V extends Writable, KOUT, VOUT>
    extends Reducer<KIN, SubKeyed<S, V>, KOUT, VOUT> {

  /**
   * Called once per sub-key of a reduce call, in the order sub-keys first appeared, after the
   * call's whole input was read. The values are deserialized into one reused object as iterated;
   * they may be iterated again.
   */
  protected abstract void reduceGroup(KIN key, S subKey, Iterable<V> values, Context context)
      throws IOException, InterruptedException;

  @Override
  public void run(Context context) throws IOException, InterruptedException {
    setup(context);
    try {
      SubKeyed<S, V> holder = ReduceInput.newValue(context);
      Class<S> subKeyClass = ReduceInput.classOf(holder.subKey());
      Class<V> valueClass = ReduceInput.classOf(holder.value());
      ParsedConfig values = LeakyHashTable.parse(context.getConfiguration());
      try (LeakyHashTable<S, V> table = TaskTables.open(context, values, subKeyClass, valueClass)) {
        ValueBytes used =
            ReduceInput.drive(
                context, values.get(LeakyOptions.VALUE_BYTES), new Sink(table, holder, context));
        LeakyCounters.publish(context, table, used);
      }
    } finally {
      cleanup(context);
    }
  }

  /** Buffers each record under its sub-key and hands the sub-groups over at each call's end. */
  private final class Sink implements RecordSink<KIN, SubKeyed<S, V>> {
    private final LeakyHashTable<S, V> table;
    private final SubKeyed<S, V> holder;
    private final Context context;

    Sink(LeakyHashTable<S, V> table, SubKeyed<S, V> holder, Context context) {
      this.table = table;
      this.holder = holder;
      this.context = context;
    }

    @Override
    public void rawRecord(KIN key, DataInputBuffer value) throws IOException {
      holder.subKey().readFields(value);
      int start = value.getPosition();
      table.putBytes(holder.subKey(), value.getData(), start, value.getLength() - start);
    }

    @Override
    public void record(KIN key, SubKeyed<S, V> value) throws IOException {
      table.put(value.subKey(), value.value());
    }

    @Override
    public void groupEnd(KIN key) throws IOException, InterruptedException {
      for (Group<S, V> group : table.groups()) {
        reduceGroup(key, group.key(), group.values(), context);
      }
      table.clear();
    }
  }
}
