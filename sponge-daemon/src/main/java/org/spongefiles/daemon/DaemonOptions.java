package org.spongefiles.daemon;

import java.util.List;
import org.spongefiles.core.config.ConfigOption;
import org.spongefiles.core.config.Importance;
import org.spongefiles.core.config.OptionSet;

/** Keys both daemons (sponge server, memory tracker) read, set in sponge-site.xml. */
public final class DaemonOptions implements OptionSet {

  public static final ConfigOption<Boolean> AUTH_NONE =
      ConfigOption.bool("sponge.auth.none", false)
          .importance(Importance.HIGH)
          .describe(
              "Lets a sponge server or memory tracker start without a cluster secret "
                  + "(sponge.auth.secret.file): every peer that can connect may then allocate, "
                  + "read, write and free chunks. For a trial on one host or a closed network "
                  + "only; without it a daemon with no secret refuses to start (exit 2). Ignored, "
                  + "with a warning, when a secret is set.");

  private static final List<ConfigOption<?>> ALL = List.of(AUTH_NONE);

  @Override
  public String title() {
    return "sponge-daemon: both daemons";
  }

  @Override
  public String summary() {
    return "Read by the sponge server and the memory tracker from sponge-site.xml (and -D "
        + "overrides on their command lines); tasks ignore them.";
  }

  @Override
  public List<ConfigOption<?>> options() {
    return ALL;
  }

  @Override
  public int order() {
    return 5;
  }
}
