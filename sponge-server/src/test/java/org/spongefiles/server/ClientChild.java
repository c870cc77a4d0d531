package org.spongefiles.server;

import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.daemon.DaemonArguments;
import org.spongefiles.testkit.RandomBytes;

/**
 * A task process for the reclaim tests: writes a SpongeFile of {@code <chunks>} chunks with the
 * given -D configuration, prints {@code WRITTEN <remote chunks>}, then waits to be killed.
 *
 * <p>Usage: {@code ClientChild <task id> <chunks> -Dkey=value ...}
 */
public final class ClientChild {
  public static void main(String[] args) throws Exception {
    List<String> rest = Arrays.asList(args).subList(2, args.length);
    Configuration conf = DaemonArguments.parse(rest);
    SpongeTask task = SpongeTask.open(conf, args[0]);
    SpongeFile file = task.create("held");
    int chunkSize = task.chunkSize();
    try (OutputStream out = file.output()) {
      out.write(RandomBytes.array(1, Integer.parseInt(args[1]) * chunkSize));
    }
    System.out.println("WRITTEN " + task.stats().chunksWritten(TierKind.REMOTE));
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
