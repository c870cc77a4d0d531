package org.spongefiles.bag;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.DataByteArray;
import org.apache.pig.data.DefaultDataBag;
import org.apache.pig.data.Tuple;
import org.apache.pig.data.TupleFactory;

/**
 * Deterministic random tuples with every kind of field Pig spills: numbers, short and large
 * chararrays (over 64 KiB, which Pig writes in another format), byte arrays, booleans, maps, nulls
 * and nested bags of tuples.
 */
final class RandomTuples {
  private static final TupleFactory TUPLES = TupleFactory.getInstance();

  private final SplittableRandom random;
  private final int distinctKeys;

  /** Tuples whose first field takes {@code distinctKeys} values, so many tuples repeat. */
  RandomTuples(long seed, int distinctKeys) {
    this.random = new SplittableRandom(seed);
    this.distinctKeys = distinctKeys;
  }

  List<Tuple> list(int count) {
    List<Tuple> tuples = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      tuples.add(next());
    }
    return tuples;
  }

  /** A tuple (key, number, text, extra): the extra field is of a random kind, sometimes null. */
  Tuple next() {
    Tuple tuple = TUPLES.newTuple(4);
    try {
      tuple.set(0, random.nextInt(distinctKeys));
      tuple.set(1, random.nextInt(10) == 0 ? null : (long) random.nextInt(1000));
      tuple.set(2, text(random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(40)));
      tuple.set(3, extra());
    } catch (org.apache.pig.backend.executionengine.ExecException e) {
      throw new AssertionError(e);
    }
    return tuple;
  }

  /**
   * Tuples that repeat: each of {@code distinct} values appears about {@code count / distinct}
   * times.
   */
  List<Tuple> repeating(int count, int distinct) {
    List<Tuple> pool = list(distinct);
    List<Tuple> tuples = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      tuples.add(pool.get(random.nextInt(distinct)));
    }
    return tuples;
  }

  private Object extra() throws org.apache.pig.backend.executionengine.ExecException {
    switch (random.nextInt(8)) {
      case 0:
        return null;
      case 1:
        return random.nextDouble();
      case 2:
        return random.nextInt(300) == 0 ? text(70_000 + random.nextInt(1000)) : text(200);
      case 3:
        byte[] bytes = new byte[random.nextInt(64)];
        random.nextBytes(bytes);
        return new DataByteArray(bytes);
      case 4:
        return random.nextBoolean();
      case 5:
        Map<String, Object> map = new HashMap<>();
        map.put("k" + random.nextInt(5), random.nextInt(100));
        map.put("n", null);
        return map;
      default:
        return nestedBag();
    }
  }

  private DataBag nestedBag() throws org.apache.pig.backend.executionengine.ExecException {
    DataBag bag = new DefaultDataBag();
    int size = random.nextInt(4);
    for (int i = 0; i < size; i++) {
      Tuple inner = TUPLES.newTuple(2);
      inner.set(0, text(random.nextInt(12)));
      inner.set(1, random.nextInt(3) == 0 ? null : random.nextInt(50));
      bag.add(inner);
    }
    return bag;
  }

  private String text(int length) {
    StringBuilder text = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      int c = random.nextInt(40);
      text.append(c < 26 ? (char) ('a' + c) : c < 36 ? (char) ('0' + c - 26) : c < 39 ? ' ' : 'é');
    }
    return text.toString();
  }
}
