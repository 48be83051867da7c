"""Expression compiler (SPEC §4): type-checks an expression against the declared facts once,
and returns a closure. Values at run time: bool, float, str, date ordinal (int), or UNKNOWN."""
from . import dates, legal_calendar
from .errors import CompileError, EvalError


class _Unknown:
    __slots__ = ()

    def __repr__(self):
        return "UNKNOWN"


UNKNOWN = _Unknown()
DATE_VAR = "$date"
# The legal calendar of the evaluation (legal_calendar.Calendar), put in the context by evaluate();
# listed among the missing facts of an expression that counts with it when none was given.
CALENDAR_VAR = "$calendar"
OPTION_PREFIX = "$option:"
SCALARS = ("bool", "number", "string", "date")
_FACT_TYPE = {"bool": "bool", "number": "number", "string": "string", "date": "date",
              "enum": "string", "photo": "photo"}


class Compiled:
    __slots__ = ("fn", "type", "refs")

    def __init__(self, fn, type_, refs):
        self.fn = fn
        self.type = type_
        self.refs = refs          # fact names referenced, first occurrence order


def compile_expr(expr, fact_decls):
    """fact_decls: {name: {"type": ...}}. Raises CompileError(reason, path)."""
    refs = []
    fn, type_ = _compile(expr, fact_decls, refs, "")
    _check_enum_literals(expr, fact_decls, "")
    return Compiled(fn, type_, refs)


def _enum_values(e, decls):
    if isinstance(e, dict) and len(e) == 1 and "var" in e:
        name = e["var"][0] if isinstance(e["var"], list) else e["var"]
        decl = decls.get(name) if isinstance(name, str) else None
        if decl is not None and decl["type"] == "enum":
            return decl["values"]
    return None


def _check_enum_literals(e, decls, path):
    """A string literal compared with an enum fact must be one of its values (a typo would
    otherwise never match and silently pass or fail)."""
    if isinstance(e, list):
        for i, item in enumerate(e):
            _check_enum_literals(item, decls, f"{path}/{i}")
        return
    if not isinstance(e, dict) or len(e) != 1:
        return
    (op, args), = e.items()
    if not isinstance(args, list):
        args = [args]
    if op in ("==", "!=", "in") and len(args) == 2:
        values = _enum_values(args[0], decls)
        other = args[1]
        if values is None and op != "in":
            values, other = _enum_values(args[1], decls), args[0]
        if values is not None:
            literals = other if (op == "in" and isinstance(other, list)) else [other]
            for i, lit in enumerate(literals):
                if isinstance(lit, str) and lit not in values:
                    raise CompileError("not_in_values", f"{path}/{op}/1" + (f"/{i}" if op == "in" else ""))
    for i, a in enumerate(args):
        _check_enum_literals(a, decls, f"{path}/{op}/{i}")


def _const(v):
    return lambda ctx: v


def _compile(e, decls, refs, path):
    if isinstance(e, bool):
        return _const(e), "bool"
    if isinstance(e, (int, float)):
        return _const(float(e)), "number"
    if isinstance(e, str):
        return _const(e), "string"
    if isinstance(e, list):
        return _compile_list(e, decls, refs, path)
    if not isinstance(e, dict) or len(e) != 1:
        raise CompileError("invalid_expression", path)
    (op, args), = e.items()
    if op not in _OPS:
        raise CompileError("unknown_operator", path)
    if not isinstance(args, list):
        args = [args]
    return _OPS[op](args, decls, refs, f"{path}/{op}")


def _compile_list(items, decls, refs, path):
    fns, elem = [], None
    for i, item in enumerate(items):
        fn, t = _compile(item, decls, refs, f"{path}/{i}")
        if t not in SCALARS:
            raise CompileError("type_error", f"{path}/{i}")
        if elem is not None and t != elem:
            raise CompileError("type_error", f"{path}/{i}")
        elem = t
        fns.append(fn)
    return (lambda ctx: [f(ctx) for f in fns]), f"list:{elem or 'any'}"


def _args(args, decls, refs, path, n=None, min_n=None):
    if n is not None and len(args) != n:
        raise CompileError("arity", path)
    if min_n is not None and len(args) < min_n:
        raise CompileError("arity", path)
    return [_compile(a, decls, refs, f"{path}/{i}") for i, a in enumerate(args)]


def _expect(compiled, types, path, index):
    if compiled[1] not in types:
        raise CompileError("type_error", f"{path}/{index}")


def _op_var(args, decls, refs, path):
    if len(args) != 1 or not isinstance(args[0], str):
        raise CompileError("arity", path)
    name = args[0]
    if name == DATE_VAR:
        return (lambda ctx: ctx[DATE_VAR]), "date"
    if name not in decls:
        raise CompileError("unknown_fact", path)
    if name not in refs:
        refs.append(name)
    return (lambda ctx: ctx.get(name, UNKNOWN)), _FACT_TYPE[decls[name]["type"]]


def _op_option(args, decls, refs, path):
    if len(args) != 1 or not isinstance(args[0], str):
        raise CompileError("arity", path)
    key = OPTION_PREFIX + args[0]
    if key not in refs:
        refs.append(key)
    return (lambda ctx: ctx.get(key, UNKNOWN)), "string"


def _op_known(args, decls, refs, path):
    (fn, _), = _args(args, decls, refs, path, n=1)
    return (lambda ctx: fn(ctx) is not UNKNOWN), "bool"


def _strict(fns, ctx):
    """Operand values left to right, or UNKNOWN at the first UNKNOWN (later operands are not
    evaluated, which matters only for eval_error)."""
    vals = []
    for f in fns:
        v = f(ctx)
        if v is UNKNOWN:
            return UNKNOWN
        vals.append(v)
    return vals


def _kleene(decisive):
    """`and` (decisive=False) and `or` (decisive=True) in Kleene logic: the first decisive
    operand decides (evaluation stops there); otherwise UNKNOWN if any operand is UNKNOWN."""
    def compile_op(args, decls, refs, path):
        cs = _args(args, decls, refs, path, min_n=1)
        for i, c in enumerate(cs):
            _expect(c, ("bool",), path, i)
        fns = [c[0] for c in cs]

        def run(ctx):
            unknown = False
            for f in fns:
                v = f(ctx)
                if v is decisive:
                    return decisive
                if v is UNKNOWN:
                    unknown = True
            return UNKNOWN if unknown else not decisive
        return run, "bool"
    return compile_op


_op_and = _kleene(False)
_op_or = _kleene(True)


def _op_not(args, decls, refs, path):
    c, = _args(args, decls, refs, path, n=1)
    _expect(c, ("bool",), path, 0)
    fn = c[0]

    def run(ctx):
        v = fn(ctx)
        return UNKNOWN if v is UNKNOWN else (not v)
    return run, "bool"


def _op_if(args, decls, refs, path):
    if len(args) < 3 or len(args) % 2 == 0:
        raise CompileError("arity", path)
    cs = _args(args, decls, refs, path)
    result_type = cs[-1][1]
    pairs = []
    for i in range(0, len(cs) - 1, 2):
        _expect(cs[i], ("bool",), path, i)
        if cs[i + 1][1] != result_type:
            raise CompileError("type_error", f"{path}/{i + 1}")
        pairs.append((cs[i][0], cs[i + 1][0]))
    default = cs[-1][0]

    def run(ctx):
        for cond, then in pairs:
            v = cond(ctx)
            if v is UNKNOWN:
                return UNKNOWN
            if v:
                return then(ctx)
        return default(ctx)
    return run, result_type


def _equality(negate):
    def op(args, decls, refs, path):
        a, b = _args(args, decls, refs, path, n=2)
        _expect(a, SCALARS, path, 0)
        if b[1] != a[1]:
            raise CompileError("type_error", f"{path}/1")
        fa, fb = a[0], b[0]

        def run(ctx):
            x = fa(ctx)
            if x is UNKNOWN:
                return UNKNOWN
            y = fb(ctx)
            if y is UNKNOWN:
                return UNKNOWN
            return (x != y) if negate else (x == y)
        return run, "bool"
    return op


def _ordering(cmp, allow_between):
    def op(args, decls, refs, path):
        if len(args) == 3 and not allow_between:
            raise CompileError("arity", path)
        if len(args) not in (2, 3):
            raise CompileError("arity", path)
        cs = _args(args, decls, refs, path)
        _expect(cs[0], ("number", "date"), path, 0)
        for i, c in enumerate(cs[1:], 1):
            if c[1] != cs[0][1]:
                raise CompileError("type_error", f"{path}/{i}")
        fns = [c[0] for c in cs]

        def run(ctx):
            vals = _strict(fns, ctx)
            if vals is UNKNOWN:
                return UNKNOWN
            if len(vals) == 2:
                return cmp(vals[0], vals[1])
            return cmp(vals[0], vals[1]) and cmp(vals[1], vals[2])
        return run, "bool"
    return op


def _op_in(args, decls, refs, path):
    a, b = _args(args, decls, refs, path, n=2)
    _expect(a, SCALARS, path, 0)
    if not b[1].startswith("list:") or b[1] not in (f"list:{a[1]}", "list:any"):
        raise CompileError("type_error", f"{path}/1")
    fa, fb = a[0], b[0]

    def run(ctx):
        x = fa(ctx)
        if x is UNKNOWN:
            return UNKNOWN
        unknown = False
        for y in fb(ctx):
            if y is UNKNOWN:
                unknown = True
            elif y == x:
                return True
        return UNKNOWN if unknown else False
    return run, "bool"


def _arith(kind):
    def op(args, decls, refs, path):
        if kind == "-":
            cs = _args(args, decls, refs, path)
            if len(cs) not in (1, 2):
                raise CompileError("arity", path)
        else:
            cs = _args(args, decls, refs, path, min_n=2)
        for i, c in enumerate(cs):
            _expect(c, ("number",), path, i)
        fns = [c[0] for c in cs]

        def run(ctx):
            vals = _strict(fns, ctx)
            if vals is UNKNOWN:
                return UNKNOWN
            if kind == "-":
                return -vals[0] if len(vals) == 1 else vals[0] - vals[1]
            acc = vals[0]
            for v in vals[1:]:
                acc = acc + v if kind == "+" else acc * v
            return acc
        return run, "number"
    return op


def _op_date(args, decls, refs, path):
    if len(args) != 1 or not isinstance(args[0], str):
        raise CompileError("arity", path)
    ordinal = dates.parse_iso(args[0])
    if ordinal is None:
        raise CompileError("invalid_date", path)
    return _const(ordinal), "date"


def _func(arg_types, result_type, impl):
    def op(args, decls, refs, path):
        cs = _args(args, decls, refs, path, n=len(arg_types))
        for i, (c, t) in enumerate(zip(cs, arg_types)):
            _expect(c, (t,), path, i)
        fns = [c[0] for c in cs]
        if len(fns) == 1:
            f0 = fns[0]

            def run1(ctx):
                v = f0(ctx)
                return UNKNOWN if v is UNKNOWN else impl(v)
            return run1, result_type

        def run(ctx):
            vals = _strict(fns, ctx)
            if vals is UNKNOWN:
                return UNKNOWN
            return impl(*vals)
        return run, result_type
    return op


def _op_cc_132_days(args, decls, refs, path):
    """cc_132_days(d, n): the last day of an N-day period from d by Código Civil art. 132 (start day
    excluded, a last day without office hours moved to the next business day), in the calendar of
    the evaluation; UNKNOWN without one (the last day cannot be known)."""
    cs = _args(args, decls, refs, path, n=2)
    _expect(cs[0], ("date",), path, 0)
    _expect(cs[1], ("number",), path, 1)
    if CALENDAR_VAR not in refs:
        refs.append(CALENDAR_VAR)
    fns = [c[0] for c in cs]

    def run(ctx):
        vals = _strict(fns, ctx)
        cal = ctx.get(CALENDAR_VAR)
        if vals is UNKNOWN or cal is None:
            return UNKNOWN
        start = dates.add_days(vals[0], 0)
        n = dates.add_days(start, vals[1]) - start       # integer check and range, as add_days
        try:
            return legal_calendar.cc_132_days(cal, dates.to_iso(start), n).toordinal()
        except OverflowError:                            # moved past 9999-12-31
            raise EvalError("date_out_of_range") from None
    return run, "date"


def _num(f):
    return lambda *a: float(f(*a))


_OPS = {
    "var": _op_var, "option": _op_option, "known": _op_known, "and": _op_and, "or": _op_or, "not": _op_not,
    "if": _op_if, "==": _equality(False), "!=": _equality(True),
    "<": _ordering(lambda a, b: a < b, True), "<=": _ordering(lambda a, b: a <= b, True),
    ">": _ordering(lambda a, b: a > b, False), ">=": _ordering(lambda a, b: a >= b, False),
    "in": _op_in, "+": _arith("+"), "-": _arith("-"), "*": _arith("*"), "date": _op_date,
    "add_days": _func(("date", "number"), "date", dates.add_days),
    "cc_132_days": _op_cc_132_days,
    "add_months": _func(("date", "number"), "date", dates.add_months),
    "add_years": _func(("date", "number"), "date", dates.add_years),
    "days_between": _func(("date", "date"), "number", _num(dates.days_between)),
    "months_between": _func(("date", "date"), "number", _num(dates.months_between)),
    "years_between": _func(("date", "date"), "number", _num(dates.years_between)),
    "add_months_cc": _func(("date", "number"), "date", dates.add_months_cc),
    "add_years_cc": _func(("date", "number"), "date", dates.add_years_cc),
    "years_between_cc": _func(("date", "date"), "number", _num(dates.years_between_cc)),
    "year": _func(("date",), "number", _num(dates.year)),
    "month": _func(("date",), "number", _num(dates.month)),
    "day": _func(("date",), "number", _num(dates.day)),
    "make_date": _func(("number", "number", "number"), "date", dates.make_date),
}
