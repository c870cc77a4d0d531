package org.spongefiles.leaky.mapreduce;

import java.io.IOException;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.util.ReflectionUtils;
import org.spongefiles.core.config.ParsedConfig;
import org.spongefiles.leaky.Group;
import org.spongefiles.leaky.LeakyHashTable;
import org.spongefiles.leaky.LeakyOptions;
import org.spongefiles.leaky.ValueBytes;

/**
 * A reduce-side hash join of two tagged inputs: the build side of the task's whole partition is
 * buffered as bytes in a {@link LeakyHashTable} keyed by join key, then each probe-side record is
 * streamed against it and {@link #join} is called for every matching pair. Map output keys are a
 * {@link JoinKey} subclass (which sorts the build side first and partitions by join key) and values
 * a {@link JoinValue} subclass; the job needs no other setting.
 *
 * <pre>{@code
 * public static class RankRevenue
 *     extends LeakyJoinReducer<Text, UserVisit, Ranking, Text, Text> {
 *   protected void join(Text url, UserVisit visit, Ranking rank, Context context)
 *       throws IOException, InterruptedException {
 *     context.write(url, new Text(rank.pageRank() + "," + visit.adRevenue()));
 *   }
 * }
 * }</pre>
 *
 * <p>Probe records without a match are counted ({@code UNMATCHED_PROBES}) and dropped: an inner
 * join. When a key's build values were moved to SpongeFiles, its probe records are buffered as
 * bytes (up to {@code sponge.leaky.join.probe.batch}) and joined a batch at a time, so the build
 * values are read back once per batch rather than once per probe record; such a key's pairs then
 * come build-major (each build value with every probe of the batch).
 */
public abstract class LeakyJoinReducer<
        K extends WritableComparable<?>, B extends Writable, P extends Writable, KOUT, VOUT>
    extends Reducer<JoinKey<K>, JoinValue<B, P>, KOUT, VOUT> {

  /** Probe-side records whose key had no build-side value. */
  public static final String UNMATCHED_PROBES = "UNMATCHED_PROBES";

  /**
   * Called for every build-side value matching a probe-side value. Both objects are reused: copy
   * what must outlive the call.
   */
  protected abstract void join(K key, B build, P probe, Context context)
      throws IOException, InterruptedException;

  @Override
  public void run(Context context) throws IOException, InterruptedException {
    setup(context);
    try {
      JoinValue<B, P> holder = ReduceInput.newValue(context);
      JoinKey<K> keyHolder = ReduceInput.newKey(context);
      Class<K> keyClass = ReduceInput.classOf(keyHolder.key());
      Class<B> buildClass = ReduceInput.classOf(holder.build());
      ParsedConfig values = LeakyHashTable.parse(context.getConfiguration());
      try (LeakyHashTable<K, B> table = TaskTables.open(context, values, keyClass, buildClass)) {
        Sink sink = new Sink(table, holder, context, values.get(LeakyOptions.JOIN_PROBE_BATCH));
        ValueBytes used = ReduceInput.drive(context, values.get(LeakyOptions.VALUE_BYTES), sink);
        sink.flush();
        context.getCounter(LeakyCounters.GROUP, UNMATCHED_PROBES).increment(sink.unmatched);
        LeakyCounters.publish(context, table, used);
      }
    } finally {
      cleanup(context);
    }
  }

  /** Buffers build-side values, then probes with each probe-side value. */
  private final class Sink implements RecordSink<JoinKey<K>, JoinValue<B, P>> {
    private final LeakyHashTable<K, B> table;
    private final JoinValue<B, P> holder;
    private final Context context;
    private final long batchLimit;
    private final DataOutputBuffer batch = new DataOutputBuffer();
    private final DataInputBuffer batchIn = new DataInputBuffer();
    private final P batchProbe;
    private Group<K, B> batchGroup;
    private boolean probing;
    private long unmatched;

    @SuppressWarnings("unchecked")
    Sink(LeakyHashTable<K, B> table, JoinValue<B, P> holder, Context context, long batchLimit) {
      this.table = table;
      this.holder = holder;
      this.context = context;
      this.batchLimit = batchLimit;
      this.batchProbe =
          (P) ReflectionUtils.newInstance(holder.probe().getClass(), context.getConfiguration());
    }

    @Override
    public void rawRecord(JoinKey<K> key, DataInputBuffer value)
        throws IOException, InterruptedException {
      byte side = value.readByte();
      checkSide(key, side);
      if (side == JoinKey.BUILD) {
        int start = value.getPosition();
        table.putBytes(key.key(), value.getData(), start, value.getLength() - start);
      } else {
        holder.probe().readFields(value);
        probe(key.key(), holder.probe());
      }
    }

    @Override
    public void record(JoinKey<K> key, JoinValue<B, P> value)
        throws IOException, InterruptedException {
      checkSide(key, value.side());
      if (value.side() == JoinKey.BUILD) {
        table.put(key.key(), value.build());
      } else {
        probe(key.key(), value.probe());
      }
    }

    @Override
    public void groupEnd(JoinKey<K> key) throws IOException, InterruptedException {
      // The table spans the whole partition; only a batch of probes may be pending.
      flush();
    }

    private void checkSide(JoinKey<K> key, byte valueSide) throws IOException {
      if (valueSide != key.side()) {
        throw new IOException(
            "Join record " + key + " carries a value of side " + valueSide + ": they must agree");
      }
      if (valueSide == JoinKey.BUILD && probing) {
        throw new IOException(
            "Build-side record "
                + key
                + " arrived after probe-side records: the map output key must be a JoinKey "
                + "sorted by its own compareTo (no other sort comparator)");
      }
      probing |= valueSide == JoinKey.PROBE;
    }

    private void probe(K key, P probe) throws IOException, InterruptedException {
      Group<K, B> group = table.get(key);
      if (group == null) {
        unmatched++;
        return;
      }
      if (!group.overflowed()) {
        for (B build : group.values()) {
          join(key, build, probe, context);
        }
        return;
      }
      if (batchGroup != null && !batchGroup.key().equals(key)) {
        flush();
      }
      batchGroup = group;
      probe.write(batch);
      if (batch.getLength() >= batchLimit) {
        flush();
      }
    }

    /**
     * Joins the buffered probes of one key whose build values overflowed: the build values are read
     * back once for the whole batch, each joined with every buffered probe in turn.
     */
    void flush() throws IOException, InterruptedException {
      if (batchGroup == null) {
        return;
      }
      K key = batchGroup.key();
      for (B build : batchGroup.values()) {
        batchIn.reset(batch.getData(), 0, batch.getLength());
        while (batchIn.getPosition() < batch.getLength()) {
          batchProbe.readFields(batchIn);
          join(key, build, batchProbe, context);
        }
      }
      batchGroup = null;
      batch.reset();
    }
  }
}
