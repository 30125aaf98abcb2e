package io.distlock.spring;

import java.util.List;

import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.ArgumentResolver;
import org.springframework.core.io.support.SpringFactoriesLoader.FailureHandler;

/**
 * Analyses a start-up failure as Spring Boot does before it prints "APPLICATION FAILED TO START": with every
 * {@link FailureAnalyzer} registered in {@code META-INF/spring.factories}, Boot's and ours, the first that answers
 * winning.
 */
public final class StartupFailures {

    private StartupFailures() {
    }

    /**
     * Analyses a failure.
     *
     * @param failure what the context's refresh threw (analyzers that cannot load, such as those of absent
     *     libraries, are skipped as Boot skips them)
     * @return the analysis Boot would print, or {@code null} when no analyzer answers
     */
    public static @Nullable FailureAnalysis analyze(Throwable failure) {
        ArgumentResolver arguments = ArgumentResolver.of(BeanFactory.class, new DefaultListableBeanFactory())
            .and(Environment.class, new StandardEnvironment());
        List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation()
            .load(FailureAnalyzer.class, arguments, FailureHandler.logging(LogFactory.getLog(StartupFailures.class)));
        for (FailureAnalyzer analyzer : analyzers) {
            FailureAnalysis analysis = analyzer.analyze(failure);
            if (analysis != null) {
                return analysis;
            }
        }
        return null;
    }

    /**
     * The messages of a failure and all its causes, one a line.
     *
     * @param failure the failure
     * @return the messages
     */
    public static String messages(Throwable failure) {
        StringBuilder messages = new StringBuilder();
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            messages.append(cause.getMessage()).append('\n');
        }
        return messages.toString();
    }
}
