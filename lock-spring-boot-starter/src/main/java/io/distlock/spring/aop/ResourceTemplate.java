package io.distlock.spring.aop;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.distlock.core.LockArguments;
import org.jspecify.annotations.Nullable;

import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.BeanResolver;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.common.CompositeStringExpression;
import org.springframework.expression.common.LiteralExpression;
import org.springframework.expression.common.TemplateParserContext;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.BeanReference;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;

/**
 * A {@link io.distlock.spring.DistributedLock#resource()} parsed once: literal text, or a SpEL template whose
 * {@code #{…}} parts are evaluated against the call's arguments on every call. Every part must produce a value: a
 * {@code null} part would silently lock a different, shorter name. Values become text as {@link ResourceText} says:
 * arrays and collections by their elements, never as Object's identity form ({@code Customer@1b6d3586}), which
 * differs per call and per JVM and so would exclude nothing.
 */
final class ResourceTemplate {

    private static final SpelExpressionParser parser = new SpelExpressionParser();

    private static final TemplateParserContext templateContext = new TemplateParserContext();

    private final String text;

    private final List<Expression> parts;

    /** A part that is one variable: {@code #id}, {@code #p0}. */
    private static final java.util.regex.Pattern PLAIN_VARIABLE = java.util.regex.Pattern.compile("#([A-Za-z_]\\w*)");

    /** A positional variable: {@code p0}, {@code a1}. */
    private static final java.util.regex.Pattern POSITIONAL = java.util.regex.Pattern.compile("[pa](\\d+)");

    private volatile int @Nullable [] argumentIndexes;

    private ResourceTemplate(String text, List<Expression> parts) {
        this.text = text;
        this.parts = parts;
    }

    /**
     * Parses a template whose {@code ${…}} placeholders are already resolved.
     *
     * @param text the template
     * @return the parsed template
     * @throws ParseException when a {@code #{…}} part is not valid SpEL
     */
    static ResourceTemplate parse(String text) {
        if (!text.contains(templateContext.getExpressionPrefix())) {
            return new ResourceTemplate(text, List.of(new LiteralExpression(text)));
        }
        Expression expression = parser.parseExpression(text, templateContext);
        List<Expression> parts = expression instanceof CompositeStringExpression composite
                ? List.of(composite.getExpressions()) : List.of(expression);
        return new ResourceTemplate(text, parts);
    }

    /**
     * The template text, after placeholder resolution.
     *
     * @return the text
     */
    String text() {
        return text;
    }

    /**
     * Whether the template is plain text, the same on every call.
     *
     * @return {@code true} without {@code #{…}} parts
     */
    boolean isLiteral() {
        return parts.size() == 1 && parts.get(0) instanceof LiteralExpression;
    }

    /**
     * The variables the template reads ({@code #month}, {@code #p0}, {@code #root}), without the {@code #}.
     *
     * @return the names in order of appearance
     */
    Set<String> variables() {
        Set<String> names = new LinkedHashSet<>();
        for (SpelNode node : TemplateNodes.nodes(parts)) {
            if (node instanceof VariableReference) {
                names.add(node.toStringAST().substring(1));
            }
        }
        return names;
    }

    /**
     * The {@code #{…}} parts that refer to the target bean ({@code #root.target}, {@code target},
     * {@code #root.getTarget()}), whose text differs per instance and per JVM.
     *
     * @return the parts' expressions, in order of appearance
     */
    List<String> partsReferringToTarget() {
        List<String> found = new ArrayList<>();
        for (Expression part : parts) {
            if (part instanceof SpelExpression spel && TemplateNodes.refersToTarget(spel.getAST(), true)) {
                found.add(part.getExpressionString());
            }
        }
        return found;
    }

    /**
     * The variables whose values become part of the name as they are: a {@code #{…}} part that is just a variable
     * ({@code #{#customer}}, {@code #{#p0}}) or a concatenation of variables, and {@code #{#root.args}}, recorded as
     * the variable {@code root.args}. A part such as {@code #{#order.id}} renders a property, not the variable.
     *
     * @return each rendered variable with the part it appears in
     */
    List<RenderedVariable> renderedVariables() {
        List<RenderedVariable> found = new ArrayList<>();
        for (Expression part : parts) {
            if (part instanceof SpelExpression spel) {
                TemplateNodes.collectRendered(part.getExpressionString(), spel.getAST(), found);
            }
        }
        return found;
    }

    /**
     * A variable whose value is rendered into the name.
     *
     * @param expression the {@code #{…}} part it appears in, without the delimiters
     * @param variable the variable's name without {@code #}: a parameter name, {@code p0}, {@code a0},
     *     {@code root} (the expression root itself) or {@code root.args}
     */
    record RenderedVariable(String expression, String variable) {
    }

    /**
     * The beans the template refers to with {@code @name}.
     *
     * @return the bean names in order of appearance
     */
    Set<String> beanNames() {
        Set<String> names = new LinkedHashSet<>();
        for (SpelNode node : TemplateNodes.nodes(parts)) {
            if (node instanceof BeanReference reference) {
                names.add(reference.getName());
            }
        }
        return names;
    }

    /**
     * For each part, the index of the argument it reads when it is a plain parameter reference ({@code #id},
     * {@code #p0}, {@code #a0}), else -1; resolved once for the method the template belongs to.
     */
    private int[] argumentIndexes(Method method, ParameterNameDiscoverer parameterNames) {
        int[] indexes = argumentIndexes;
        if (indexes == null) {
            indexes = new int[parts.size()];
            @Nullable String[] names = parameterNames.getParameterNames(method);
            for (int i = 0; i < parts.size(); i++) {
                // Varargs are left to SpEL, which unpacks them its own way.
                indexes[i] = method.isVarArgs() ? -1 : argumentIndex(parts.get(i).getExpressionString().strip(),
                        names, method.getParameterCount());
            }
            argumentIndexes = indexes;
        }
        return indexes;
    }

    private static int argumentIndex(String expression, @Nullable String @Nullable [] names, int parameterCount) {
        java.util.regex.Matcher plain = PLAIN_VARIABLE.matcher(expression);
        if (!plain.matches()) {
            return -1;
        }
        String variable = plain.group(1);
        if (names != null) {
            // A parameter's own name wins over the positional form, as in SpEL's method-based context.
            for (int i = names.length - 1; i >= 0; i--) {
                if (variable.equals(names[i])) {
                    return i;
                }
            }
        }
        java.util.regex.Matcher positional = POSITIONAL.matcher(variable);
        if (positional.matches()) {
            int index = Integer.parseInt(positional.group(1));
            return index < parameterCount ? index : -1;
        }
        return -1;
    }

    /**
     * Evaluates the template for one call.
     *
     * @param root the {@code #root} object
     * @param args the call's arguments
     * @param parameterNames how parameter names are found
     * @param beanResolver resolves {@code @name} references
     * @return the resource name
     * @throws IllegalArgumentException when a part evaluates to {@code null} or the result is not a valid resource
     *     name (blank, too long, control characters)
     */
    String evaluate(LockExpressionRoot root, @Nullable Object[] args, ParameterNameDiscoverer parameterNames,
            BeanResolver beanResolver) {
        if (isLiteral()) {
            return text;
        }
        Method method = root.getMethod();
        int[] indexes = argumentIndexes(method, parameterNames);
        MethodBasedEvaluationContext context = null;
        StringBuilder name = new StringBuilder();
        for (int i = 0; i < parts.size(); i++) {
            Expression part = parts.get(i);
            Object value;
            if (indexes[i] >= 0) {
                // A plain parameter reference such as #{#id}: read the argument, no evaluation context needed.
                value = indexes[i] < args.length ? args[indexes[i]] : null;
            }
            else {
                if (context == null) {
                    context = new MethodBasedEvaluationContext(root, method, args, parameterNames);
                    context.setBeanResolver(beanResolver);
                }
                // Values become text through toString(): YearMonth, LocalDate, enums, ids need no converter.
                value = part.getValue(context);
            }
            if (value == null) {
                throw new IllegalArgumentException("@DistributedLock resource '" + text + "' of "
                        + LockedMethod.describe(method, root.getTargetClass()) + ": #{" + part.getExpressionString()
                        + "} evaluated to null; the method was not run");
            }
            Object identity;
            try {
                identity = ResourceText.append(name, value);
            }
            catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException("@DistributedLock resource '" + text + "' of "
                        + LockedMethod.describe(method, root.getTargetClass()) + ": #{" + part.getExpressionString()
                        + "} evaluated to " + ex.getMessage() + "; the method was not run", ex);
            }
            if (identity != null) {
                throw new IllegalArgumentException("@DistributedLock resource '" + text + "' of "
                        + LockedMethod.describe(method, root.getTargetClass()) + ": #{" + part.getExpressionString()
                        + "} rendered a " + identity.getClass().getName() + " as Object's identity form ("
                        + identity.getClass().getName() + "@" + Integer.toHexString(identity.hashCode())
                        + "), which differs per call and per JVM, so the lock would exclude nothing; the method was "
                        + "not run. Render a stable property of it, or give its class a toString()");
            }
        }
        try {
            return LockArguments.requireResource(name.toString());
        }
        catch (IllegalArgumentException ex) {
            throw new IllegalArgumentException("@DistributedLock resource '" + text + "' of "
                    + LockedMethod.describe(method, root.getTargetClass()) + " evaluated to an invalid name: "
                    + ex.getMessage() + "; the method was not run", ex);
        }
    }

    @Override
    public String toString() {
        return text;
    }
}
