package io.distlock.spring.boot3;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * This module compiles a list of the Spring Boot 4 starter's tests against Spring Boot 3; a test that moves or is
 * renamed there would silently drop out of the list, so each path the list names must name a test that exists.
 */
class SharedWiringTestsTests {

    private static final Pattern INCLUDE = Pattern.compile("<testInclude>([^<*]+\\.java)</testInclude>");

    @Test
    void everySharedTestThisModuleCompilesExistsInTheStarter() throws IOException {
        Path starterTests = Path.of("..", "lock-spring-boot-starter", "src", "test", "java");
        Matcher includes = INCLUDE.matcher(Files.readString(Path.of("pom.xml")));
        List<String> paths = includes.results().map(match -> match.group(1)).toList();

        assertThat(paths).as("test files named in pom.xml").hasSizeGreaterThan(10);
        assertThat(paths).allSatisfy(path -> assertThat(starterTests.resolve(path)).as(path).isRegularFile());
    }
}
