package org.spongefiles.bag.run;

import java.io.IOException;
import org.apache.pig.data.Tuple;

/** Tuples read one at a time from a spilled run or from a bag's memory. */
public interface TupleSource {

  /** The next tuple, or null at the end (the source has then released what it held). */
  Tuple next() throws IOException;

  /** Releases what the source holds; idempotent. */
  void close();
}
