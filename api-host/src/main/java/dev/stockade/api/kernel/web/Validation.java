package dev.stockade.api.kernel.web;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Bean-validation failures as one problem whose {@code errors} point into the body. */
final class Validation {
    private Validation() {
    }

    static ApiProblem of(ConstraintViolationException e) {
        List<FieldError> errors = new ArrayList<>();
        for (ConstraintViolation<?> v : e.getConstraintViolations()) {
            String pointer = pointer(v.getPropertyPath().toString());
            String constraint = v.getConstraintDescriptor().getAnnotation().annotationType().getSimpleName();
            errors.add(new FieldError(pointer, kebab(constraint), "`" + pointer + "` " + v.getMessage()));
        }
        errors.sort(Comparator.comparing(FieldError::pointer));
        String detail = errors.size() == 1 ? errors.get(0).detail() : errors.size() + " fields are invalid";
        return new ApiProblem(ProblemCode.VALIDATION_FAILED, detail, errors);
    }

    /** {@code create.body.name} (method, parameter, property path) becomes {@code /name}. */
    private static String pointer(String path) {
        String[] parts = path.split("\\.");
        StringBuilder b = new StringBuilder();
        for (int i = Math.min(2, parts.length - 1); i < parts.length; i++) {
            b.append('/').append(parts[i].replaceAll("\\[(\\d+)]", "/$1"));
        }
        return b.length() == 0 ? "/" : b.toString();
    }

    private static String kebab(String s) {
        return s.replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
    }
}
