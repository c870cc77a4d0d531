package org.spongefiles.daemon;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.SpongeSettings;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.core.config.ConfigValues;
import org.spongefiles.core.wire.ClusterSecret;

/**
 * Secure by default: a daemon proves the cluster secret on every connection, and runs without one
 * only when the operator says so with {@code sponge.auth.none=true}.
 */
public final class DaemonAuth {
  private static final Logger LOG = LoggerFactory.getLogger(DaemonAuth.class);

  private DaemonAuth() {}

  /**
   * The cluster secret of the parsed values (sponge-core's and {@link DaemonOptions}), or null when
   * there is none and {@code sponge.auth.none} is true.
   *
   * @throws ConfigException naming {@code sponge.auth.secret.file} and {@code sponge.auth.none}
   *     when there is no secret and no explicit consent to run without one, or naming the secret
   *     file when it cannot be used
   */
  public static ClusterSecret secret(ConfigValues conf, String daemon) {
    ClusterSecret secret = SpongeSettings.clusterSecret(conf);
    boolean none = conf.get(DaemonOptions.AUTH_NONE);
    if (secret != null) {
      if (none) {
        LOG.warn(
            "{}=true is ignored: a cluster secret is set ({}), so every peer must prove it",
            DaemonOptions.AUTH_NONE.key(),
            SpongeOptions.AUTH_SECRET_FILE.key());
      }
      return secret;
    }
    if (!none) {
      throw new ConfigException(
          SpongeOptions.AUTH_SECRET_FILE.key(),
          "(empty)",
          "the "
              + daemon
              + " needs the cluster secret: set it to a file of at least "
              + ClusterSecret.MIN_BYTES
              + " characters readable only by the daemons and task users, or set "
              + DaemonOptions.AUTH_NONE.key()
              + "=true to serve without authentication");
    }
    LOG.warn(
        "{}=true and no {}: serving without authentication; any peer that can connect may use the"
            + " pool",
        DaemonOptions.AUTH_NONE.key(),
        SpongeOptions.AUTH_SECRET_FILE.key());
    return null;
  }
}
