package org.spongefiles.it.cluster;

import org.spongefiles.workloads.index.IndexJob;

/**
 * {@link MedianClient} for the inverted index ({@link IndexJob}): the same arguments and output,
 * the number of reducers in place of the counts.
 *
 * <pre>
 * java -cp &lt;master conf&gt;:... IndexClient stock|ours &lt;local input dir&gt; &lt;hdfs dir&gt; &lt;local output file&gt; &lt;reducers&gt; [key=value ...]
 * </pre>
 */
public final class IndexClient {
  private IndexClient() {}

  public static void main(String[] args) throws Exception {
    MedianClient.Submission submission =
        MedianClient.Submission.of("IndexClient", "<reducers>", args);
    submission.runAndExit(
        IndexJob.create(
            submission.conf,
            submission.input,
            submission.output,
            Integer.parseInt(submission.argument)));
  }
}
