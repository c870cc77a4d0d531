package org.spongefiles.core.tls;

import java.util.List;
import org.spongefiles.core.config.ConfigOption;
import org.spongefiles.core.config.Importance;
import org.spongefiles.core.config.OptionSet;

/**
 * Keys of TLS on the wire, read by tasks, sponge servers, trackers and {@code bin/sponge}: one
 * switch for the cluster, a keystore per daemon and the truststore of the cluster's CA.
 */
public final class TlsOptions implements OptionSet {

  public static final ConfigOption<Boolean> ENABLED =
      ConfigOption.bool("sponge.tls.enabled", false)
          .importance(Importance.HIGH)
          .describe(
              "Encrypt every connection to a sponge server or tracker with TLS (the JDK's), the "
                  + "cluster secret still authenticating inside it. Set it the same on every "
                  + "daemon and task: a TLS port refuses plaintext peers, and a TLS client "
                  + "refuses a plaintext server.");

  public static final ConfigOption<String> KEYSTORE_FILE =
      ConfigOption.string("sponge.tls.keystore.file", "")
          .importance(Importance.HIGH)
          .describe(
              "PKCS12 keystore holding this daemon's private key and certificate (signed by the "
                  + "cluster's CA, naming the host as peers address it). Daemons only; a daemon "
                  + "loads it again for new connections when the file changes.");

  public static final ConfigOption<String> KEYSTORE_PASSWORD_FILE =
      ConfigOption.string("sponge.tls.keystore.password.file", "")
          .describe(
              "File holding the password of sponge.tls.keystore.file (and of its key), readable "
                  + "by the daemon's user only.");

  public static final ConfigOption<String> TRUSTSTORE_FILE =
      ConfigOption.string("sponge.tls.truststore.file", "")
          .importance(Importance.HIGH)
          .describe(
              "PKCS12 truststore holding the cluster CA's certificate: clients (tasks, sponge "
                  + "servers reporting to the tracker, bin/sponge) accept only daemons whose "
                  + "certificate it signed and that name the host they connect to.");

  public static final ConfigOption<String> TRUSTSTORE_PASSWORD_FILE =
      ConfigOption.string("sponge.tls.truststore.password.file", "")
          .describe(
              "File holding the password of sponge.tls.truststore.file. The truststore holds "
                  + "no secret, so task users may read both.");

  private static final List<ConfigOption<?>> ALL =
      List.of(
          ENABLED,
          KEYSTORE_FILE,
          KEYSTORE_PASSWORD_FILE,
          TRUSTSTORE_FILE,
          TRUSTSTORE_PASSWORD_FILE);

  @Override
  public String title() {
    return "sponge-core: TLS";
  }

  @Override
  public String summary() {
    return "Read by tasks, sponge servers, trackers and bin/sponge. Off by default; turn it on "
        + "on networks that are not trusted (docs/operations.md, Security).";
  }

  @Override
  public List<ConfigOption<?>> options() {
    return ALL;
  }

  @Override
  public int order() {
    return 2;
  }
}
