package org.spongefiles.merger;

import java.io.IOException;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.RawKeyValueIterator;

/** The job's combiner, run over merged records on their way into a SpongeFile. */
interface Combiner<K, V> {

  /** Combines the sorted records of {@code input} group by group and appends the results. */
  void combine(RawKeyValueIterator input, IFile.Writer<K, V> output) throws IOException;
}
