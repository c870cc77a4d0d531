package org.spongefiles.bag.run;

import java.io.IOException;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import org.apache.pig.data.Tuple;

/**
 * Merges sources that are each in {@code order} into one stream in that order; for a distinct bag,
 * also drops a tuple equal (under {@code order}) to the one before, so runs that each hold distinct
 * tuples merge into distinct tuples. Ties come from the lower-numbered source first.
 */
public final class RunMerge implements TupleSource {
  private final List<TupleSource> sources;
  private final Comparator<Tuple> order;
  private final boolean distinct;
  private PriorityQueue<Head> heads;
  private Tuple last;

  /** The next tuple of one source. */
  private static final class Head {
    final TupleSource source;
    final int index;
    Tuple tuple;

    Head(TupleSource source, int index) {
      this.source = source;
      this.index = index;
    }
  }

  public RunMerge(List<TupleSource> sources, Comparator<Tuple> order, boolean distinct) {
    this.sources = sources;
    this.order = order;
    this.distinct = distinct;
  }

  @Override
  public Tuple next() throws IOException {
    if (heads == null) {
      heads =
          new PriorityQueue<>(
              Math.max(1, sources.size()),
              (a, b) -> {
                int c = order.compare(a.tuple, b.tuple);
                return c != 0 ? c : Integer.compare(a.index, b.index);
              });
      for (int i = 0; i < sources.size(); i++) {
        refill(new Head(sources.get(i), i));
      }
    }
    while (true) {
      Head head = heads.poll();
      if (head == null) {
        return null;
      }
      Tuple tuple = head.tuple;
      refill(head);
      if (distinct && last != null && order.compare(tuple, last) == 0) {
        continue;
      }
      if (distinct) {
        last = tuple;
      }
      return tuple;
    }
  }

  private void refill(Head head) throws IOException {
    Tuple tuple = head.source.next();
    if (tuple != null) {
      head.tuple = tuple;
      heads.add(head);
    }
  }

  @Override
  public void close() {
    for (TupleSource source : sources) {
      source.close();
    }
  }
}
