package org.spongefiles.leaky.mapreduce;

import java.io.IOException;
import java.lang.reflect.Field;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.reduce.WrappedReducer;
import org.apache.hadoop.mapreduce.task.ReduceContextImpl;

/**
 * The serialized reduce input behind a reducer's context: Hadoop's {@code ReduceContextImpl} reads
 * its records from a {@code RawKeyValueIterator} and deserializes every value; this reads the same
 * iterator so a helper can copy value bytes without deserializing them. It relies on private fields
 * of {@code @Private} classes (checked on Hadoop 3.4.3: {@code
 * WrappedReducer.Context.reduceContext}, {@code ReduceContextImpl.input}, {@code hasMore}, {@code
 * comparator}, {@code inputKeyCounter}, {@code inputValueCounter}), so {@link #of} returns null,
 * and the helpers fall back to public API, whenever they are not there.
 *
 * <p>Bytes returned by {@link #key()} and {@link #value()} are valid until {@link #next()}.
 */
final class RawReduceInput {
  private final ReduceContextImpl<?, ?, ?, ?> context;
  private final RawKeyValueIterator input;
  private final RawComparator<?> comparator;
  private final Counter keyCounter;
  private final Counter valueCounter;
  private final Field hasMoreField;
  private boolean hasMore;

  private RawReduceInput(ReduceContextImpl<?, ?, ?, ?> context)
      throws ReflectiveOperationException {
    this.context = context;
    this.input = (RawKeyValueIterator) read(ReduceContextImpl.class, "input", context);
    this.comparator = (RawComparator<?>) read(ReduceContextImpl.class, "comparator", context);
    this.keyCounter = (Counter) read(ReduceContextImpl.class, "inputKeyCounter", context);
    this.valueCounter = (Counter) read(ReduceContextImpl.class, "inputValueCounter", context);
    this.hasMoreField = field(ReduceContextImpl.class, "hasMore");
    this.hasMore = hasMoreField.getBoolean(context);
  }

  /**
   * The raw input of {@code context}, or null when the context is not Hadoop's own (a chained or
   * mocked reducer) or its fields have changed.
   */
  static RawReduceInput of(Reducer<?, ?, ?, ?>.Context context) {
    try {
      if (!(context instanceof WrappedReducer.Context)) {
        return null;
      }
      Object inner = read(WrappedReducer.Context.class, "reduceContext", context);
      if (!(inner instanceof ReduceContextImpl)) {
        return null;
      }
      return new RawReduceInput((ReduceContextImpl<?, ?, ?, ?>) inner);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /** Whether a record is there to read. */
  boolean hasMore() {
    return hasMore;
  }

  /** The current record's key bytes, from the buffer's position to its length. */
  DataInputBuffer key() throws IOException {
    return input.getKey();
  }

  /** The current record's value bytes, from the buffer's position to its length. */
  DataInputBuffer value() throws IOException {
    return input.getValue();
  }

  /** Moves to the next record. */
  void next() throws IOException {
    hasMore = input.next();
  }

  /** The comparator the context groups keys with (the job's grouping comparator). */
  @SuppressWarnings("unchecked")
  RawComparator<Object> groupingComparator() {
    return (RawComparator<Object>) comparator;
  }

  /** REDUCE_INPUT_GROUPS, as the context counts it. */
  Counter keyCounter() {
    return keyCounter;
  }

  /** REDUCE_INPUT_RECORDS, as the context counts it. */
  Counter valueCounter() {
    return valueCounter;
  }

  /** Tells the context its input is consumed, so its own iteration finds nothing left. */
  void finish() throws IOException {
    try {
      hasMoreField.setBoolean(context, false);
    } catch (IllegalAccessException e) {
      throw new IOException("cannot mark the reduce input consumed", e);
    }
  }

  private static Object read(Class<?> type, String name, Object target)
      throws ReflectiveOperationException {
    return field(type, name).get(target);
  }

  private static Field field(Class<?> type, String name) throws NoSuchFieldException {
    Field field = type.getDeclaredField(name);
    field.setAccessible(true);
    return field;
  }
}
