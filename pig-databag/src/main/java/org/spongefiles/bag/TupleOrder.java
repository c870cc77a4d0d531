package org.spongefiles.bag;

import java.util.Comparator;
import org.apache.pig.data.Tuple;

/** Pig's default order of tuples ({@link Tuple#compareTo}), serializable with the bags using it. */
enum TupleOrder implements Comparator<Tuple> {
  NATURAL;

  @Override
  @SuppressWarnings("unchecked")
  public int compare(Tuple a, Tuple b) {
    return a.compareTo(b);
  }
}
