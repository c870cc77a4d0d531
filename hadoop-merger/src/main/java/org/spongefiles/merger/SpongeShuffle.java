package org.spongefiles.merger;

import java.io.IOException;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapreduce.task.reduce.MergeManager;
import org.apache.hadoop.mapreduce.task.reduce.Shuffle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.core.config.ParsedConfig;

/**
 * Hadoop's reduce-side shuffle with its merge over SpongeFiles. Enable it with
 *
 * <pre>
 * mapreduce.job.reduce.shuffle.consumer.plugin.class = org.spongefiles.merger.SpongeShuffle
 * </pre>
 *
 * (or {@link SpongeMergerSetup#enable}). Fetching is Hadoop's own; only the merge manager differs.
 * When SpongeFiles are unusable at the task's start, or the task runs on a Hadoop release the
 * merger does not support ({@link HadoopRelease}), the task fails, naming the key or release,
 * unless {@code sponge.merger.fallback=true}, which runs Hadoop's merger instead with a warning. A
 * failed attempt releases its SpongeFiles, pool chunks and threads whether its shuffle or its
 * reducer failed.
 */
public class SpongeShuffle<K, V> extends Shuffle<K, V> {
  private static final Logger LOG = LoggerFactory.getLogger(SpongeShuffle.class);

  private MergerSession session;

  @Override
  @SuppressWarnings("rawtypes")
  protected MergeManager<K, V> createMergeManager(ShuffleConsumerPlugin.Context context) {
    ParsedConfig values = null;
    MergerSession opened = null;
    try {
      values = MergerSession.parse(context.getJobConf());
      HadoopRelease.check(HadoopRelease.running());
      opened = MergerSession.open(context, values);
      MergeManager<K, V> manager = opened.manager(this);
      session = opened;
      return manager;
    } catch (IOException | RuntimeException e) {
      if (opened != null) {
        closeQuietly(opened, e);
      }
      if (badFallback(e)) {
        throw new SpongeMergerException(
            "SpongeFiles merger cannot start for " + context.getReduceId() + ": " + e.getMessage(),
            e);
      }
      if (!fallback(values, context)) {
        throw new SpongeMergerException(
            "SpongeFiles merger cannot start for "
                + context.getReduceId()
                + ": "
                + e.getMessage()
                + " (or set "
                + MergerOptions.FALLBACK.key()
                + "=true to run Hadoop's own merger instead)",
            e);
      }
      LOG.warn(
          "SpongeFiles merger cannot start for {}, running Hadoop's own merger ({}=true): {}",
          context.getReduceId(),
          MergerOptions.FALLBACK.key(),
          e.getMessage());
      context
          .getReporter()
          .incrCounter(MergerCounter.GROUP, MergerCounter.FALLBACK_TO_HADOOP_MERGER.name(), 1);
      return super.createMergeManager(context);
    }
  }

  /** Whether {@code failure} is a bad value of the fallback key itself: no fallback is known. */
  private static boolean badFallback(Exception failure) {
    return failure instanceof ConfigException
        && ((ConfigException) failure).key().equals(MergerOptions.FALLBACK.key());
  }

  /**
   * {@code sponge.merger.fallback} from the parsed values or, when the parse stopped at another
   * key's bad value (perhaps before reaching this one), read alone on the way to failing.
   */
  private static boolean fallback(
      ParsedConfig values, ShuffleConsumerPlugin.Context<?, ?> context) {
    return values != null
        ? values.get(MergerOptions.FALLBACK)
        : MergerOptions.FALLBACK.get(context.getJobConf());
  }

  /**
   * Runs the shuffle and the merge. When they fail, the task fails without calling {@link
   * #close()}, so the SpongeFiles of the attempt are released here.
   */
  @Override
  public RawKeyValueIterator run() throws IOException, InterruptedException {
    try {
      RawKeyValueIterator merged = super.run();
      if (session != null) {
        session.publishCounters();
      }
      return merged;
    } catch (Throwable failure) {
      if (session != null) {
        closeQuietly(session, failure);
      }
      throw failure;
    }
  }

  /** Called after the reducer ran: publishes the counters and deletes the SpongeFiles left. */
  @Override
  public void close() {
    try {
      super.close();
    } finally {
      if (session != null) {
        try {
          session.close();
        } catch (IOException e) {
          LOG.warn("Could not release the SpongeFiles of the merge: {}", e.toString());
        }
      }
    }
  }

  /** Closes {@code failed}, recording a failure to close it in {@code cause}. */
  private static void closeQuietly(MergerSession failed, Throwable cause) {
    try {
      failed.close();
    } catch (IOException | RuntimeException e) {
      cause.addSuppressed(e);
    }
  }
}
