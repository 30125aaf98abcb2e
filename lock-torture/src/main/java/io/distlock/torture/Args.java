package io.distlock.torture;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Command-line options of the form {@code --name value}.
 */
final class Args {

    private final Map<String, String> values;

    private Args(Map<String, String> values) {
        this.values = values;
    }

    static Args parse(String[] args) {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--") || arg.length() == 2) {
                throw new IllegalArgumentException("Expected an option such as --db, got '" + arg + "'");
            }
            String name = arg.substring(2);
            int equals = name.indexOf('=');
            if (equals >= 0) {
                values.put(name.substring(0, equals), name.substring(equals + 1));
            }
            else if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                values.put(name, args[++i]);
            }
            else {
                values.put(name, "");
            }
        }
        return new Args(values);
    }

    boolean has(String name) {
        return values.containsKey(name);
    }

    String get(String name) {
        String value = values.get(name);
        if (value == null) {
            throw new IllegalArgumentException("Missing option --" + name);
        }
        return value;
    }

    String get(String name, String fallback) {
        return values.getOrDefault(name, fallback);
    }

    long getLong(String name, long fallback) {
        String value = values.get(name);
        if (value == null) {
            return fallback;
        }
        try {
            return Long.parseLong(value.strip());
        }
        catch (NumberFormatException ex) {
            throw new IllegalArgumentException("Option --" + name + " needs a whole number, got '" + value + "'");
        }
    }

    int getInt(String name, int fallback) {
        return Math.toIntExact(getLong(name, fallback));
    }

    Map<String, String> values() {
        return values;
    }
}
