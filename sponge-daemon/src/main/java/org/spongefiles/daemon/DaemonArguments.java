package org.spongefiles.daemon;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/**
 * A daemon's configuration from its command line: {@code --conf <sponge-site.xml>} (any number,
 * later files win) and {@code -Dkey=value} overrides (win over files). A file that is not
 * well-formed XML is refused with its name, line and column before Hadoop reads it (Hadoop would
 * log a stack trace first).
 */
public final class DaemonArguments {
  private DaemonArguments() {}

  /**
   * @throws IllegalArgumentException naming the argument when the command line is not usable
   * @throws MalformedSiteFileException naming the file, line and column of malformed XML
   */
  public static Configuration parse(List<String> args) {
    Configuration conf = new Configuration(false);
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (arg.equals("--conf")) {
        if (i + 1 >= args.size()) {
          throw new IllegalArgumentException("--conf needs a file");
        }
        Path file = Path.of(args.get(++i));
        if (!Files.isReadable(file)) {
          throw new IllegalArgumentException("configuration file " + file + " cannot be read");
        }
        SiteFile.check(file);
        conf.addResource(new org.apache.hadoop.fs.Path(file.toUri()));
      } else if (arg.startsWith("-D") && arg.indexOf('=') > 2) {
        int eq = arg.indexOf('=');
        conf.set(arg.substring(2, eq), arg.substring(eq + 1));
      } else {
        throw new IllegalArgumentException("unknown argument '" + arg + "'");
      }
    }
    // Files are read lazily; read them now so a broken file fails at start.
    conf.size();
    return conf;
  }
}
