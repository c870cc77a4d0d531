package org.spongefiles.daemon;

import java.io.IOException;
import java.nio.file.Path;
import javax.xml.XMLConstants;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParserFactory;
import org.xml.sax.ErrorHandler;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Checks that a configuration file is well-formed XML before Hadoop's {@code Configuration} reads
 * it: Hadoop logs a malformed file's stack trace at ERROR before it throws, and an operator should
 * see one line naming the file, line and column instead.
 */
public final class SiteFile {
  private SiteFile() {}

  /** Parses {@code file} (no DTDs, no external entities) and throws when it is malformed. */
  public static void check(Path file) {
    try {
      SAXParserFactory factory = SAXParserFactory.newInstance();
      factory.setNamespaceAware(true);
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      org.xml.sax.XMLReader reader = factory.newSAXParser().getXMLReader();
      reader.setContentHandler(new DefaultHandler());
      // Without a handler of its own the JDK parser prints "[Fatal Error]" lines on stderr.
      reader.setErrorHandler(Strict.INSTANCE);
      reader.parse(file.toUri().toString());
    } catch (SAXParseException e) {
      throw new MalformedSiteFileException(
          file
              + " is not well-formed XML (line "
              + e.getLineNumber()
              + ", column "
              + e.getColumnNumber()
              + "): "
              + e.getMessage(),
          e);
    } catch (SAXException | ParserConfigurationException e) {
      throw new MalformedSiteFileException(file + " cannot be parsed: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new MalformedSiteFileException(file + " cannot be read: " + e.getMessage(), e);
    }
  }

  private enum Strict implements ErrorHandler {
    INSTANCE;

    @Override
    public void warning(SAXParseException e) {}

    @Override
    public void error(SAXParseException e) throws SAXException {
      throw e;
    }

    @Override
    public void fatalError(SAXParseException e) throws SAXException {
      throw e;
    }
  }
}
