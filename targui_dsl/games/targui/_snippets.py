"""The built-in Targui rulesets' snippets as Python (effects/prebuilt.py; written by
``python -m targui_dsl.games.targui.prebuild``): each function is the code the effect compiler
generates for one of them, found by the shape of that code. Compiled by the compiled build."""

# Generated: do not edit (see the docstring).
# ruff: noqa

from __future__ import annotations

from typing import Any

from targui_dsl.games.targui.runtime import EffectAdapter


def _s0(rt: Any, _p0: Any, _p1: Any, _p2: Any) -> Any:
    if isinstance(rt, EffectAdapter):
        return (_p0 + rt.strategic(_p1)) // 2
    else:
        return (_p0 + rt.strategic(_p1)) // 2


def _s1(rt: Any, _p0: Any, _p1: Any, _p2: Any) -> Any:
    if isinstance(rt, EffectAdapter):
        return (_p0 + rt.strategic(_p2)) // 2
    else:
        return (_p0 + rt.strategic(_p2)) // 2


def _s2(rt: Any, _p0: Any) -> Any:
    if isinstance(rt, EffectAdapter):
        return sum((rt.economic(_v0) for _v0 in rt.territories_of(_p0)), 0) if rt.holds_own_settlement(_p0) else 0
    else:
        return sum((rt.economic(_v0) for _v0 in rt.territories_of(_p0)), 0) if rt.holds_own_settlement(_p0) else 0


def _s3(rt: Any, _p0: Any) -> Any:
    if isinstance(rt, EffectAdapter):
        return sum((rt.economic(_v0) for _v0 in rt.territories_of(_p0)), 0)
    else:
        return sum((rt.economic(_v0) for _v0 in rt.territories_of(_p0)), 0)


def _s4(rt: Any, _p0: Any) -> Any:
    if isinstance(rt, EffectAdapter):
        return rt.player_camels(_p0) + rt.cash(_p0)
    else:
        return rt.player_camels(_p0) + rt.cash(_p0)


def _s5(rt: Any) -> Any:
    if isinstance(rt, EffectAdapter):
        for _v0 in rt.territories_of_kind(1):
            rt.set_camels(_v0, 0)
    else:
        for _v0 in rt.territories_of_kind(1):
            rt.set_camels(_v0, 0)


def _s6(rt: Any) -> Any:
    if isinstance(rt, EffectAdapter):
        _a_territory_camels = rt.territory_camels()
        for _v0 in [_v0 for _v0 in rt.all_players() if rt.tribe(_v0) == 3 and rt.holds_own_settlement(_v0)]:
            _t0 = rt.settlement(_v0)
            if _t0 is not None:
                rt.set_camels(_t0, _a_territory_camels[_t0] + 10)
    else:
        _a_territory_camels = rt.territory_camels()
        for _v0 in [_v0 for _v0 in rt.all_players() if rt.tribe(_v0) == 3 and rt.holds_own_settlement(_v0)]:
            _t0 = rt.settlement(_v0)
            if _t0 is not None:
                rt.set_camels(_t0, _a_territory_camels[_t0] + 10)


def _s7(rt: Any) -> Any:
    if isinstance(rt, EffectAdapter):
        _a_territory_camels = rt.territory_camels()
        for _v0 in [_v0 for _v0 in rt.all_players() if rt.tribe(_v0) == 2 and rt.holds_own_settlement(_v0)]:
            _t0 = rt.settlement(_v0)
            if _t0 is not None:
                rt.set_camels(_t0, _a_territory_camels[_t0] + 10)
    else:
        _a_territory_camels = rt.territory_camels()
        for _v0 in [_v0 for _v0 in rt.all_players() if rt.tribe(_v0) == 2 and rt.holds_own_settlement(_v0)]:
            _t0 = rt.settlement(_v0)
            if _t0 is not None:
                rt.set_camels(_t0, _a_territory_camels[_t0] + 10)


def _s8(rt: Any) -> Any:
    if isinstance(rt, EffectAdapter):
        _a_territory_camels = rt.territory_camels()
        for _v0 in [_v0 for _v0 in rt.all_players() if rt.tribe(_v0) == 0 and rt.holds_own_settlement(_v0)]:
            _t0 = rt.settlement(_v0)
            if _t0 is not None:
                rt.set_camels(_t0, _a_territory_camels[_t0] + 10)
    else:
        _a_territory_camels = rt.territory_camels()
        for _v0 in [_v0 for _v0 in rt.all_players() if rt.tribe(_v0) == 0 and rt.holds_own_settlement(_v0)]:
            _t0 = rt.settlement(_v0)
            if _t0 is not None:
                rt.set_camels(_t0, _a_territory_camels[_t0] + 10)


def _s9(rt: Any) -> Any:
    if isinstance(rt, EffectAdapter):
        _a_territory_camels = rt.territory_camels()
        for _v0 in [_v0 for _v0 in rt.all_players() if rt.tribe(_v0) == 1 and rt.holds_own_settlement(_v0)]:
            _t0 = rt.settlement(_v0)
            if _t0 is not None:
                rt.set_camels(_t0, _a_territory_camels[_t0] + 10)
    else:
        _a_territory_camels = rt.territory_camels()
        for _v0 in [_v0 for _v0 in rt.all_players() if rt.tribe(_v0) == 1 and rt.holds_own_settlement(_v0)]:
            _t0 = rt.settlement(_v0)
            if _t0 is not None:
                rt.set_camels(_t0, _a_territory_camels[_t0] + 10)


def _s10(rt: Any) -> Any:
    if isinstance(rt, EffectAdapter):
        _a_territory_camels = rt.territory_camels()
        for _v0 in rt.territories_of_kind(4):
            rt.set_camels(_v0, _a_territory_camels[_v0] - 3)
    else:
        _a_territory_camels = rt.territory_camels()
        for _v0 in rt.territories_of_kind(4):
            rt.set_camels(_v0, _a_territory_camels[_v0] - 3)


def _s11(rt: Any) -> Any:
    if isinstance(rt, EffectAdapter):
        _a_territory_camels = rt.territory_camels()
        for _v0 in rt.territories_of_kind(2):
            rt.set_camels(_v0, min(_a_territory_camels[_v0], 15))
    else:
        _a_territory_camels = rt.territory_camels()
        for _v0 in rt.territories_of_kind(2):
            rt.set_camels(_v0, min(_a_territory_camels[_v0], 15))


def _s12(rt: Any) -> Any:
    if isinstance(rt, EffectAdapter):
        for _v0 in [_v0 for _v0 in rt.all_players() if rt.holds_own_settlement(_v0)]:
            rt.set_cash(_v0, rt.cash(_v0) + 10)
    else:
        for _v0 in [_v0 for _v0 in rt.all_players() if rt.holds_own_settlement(_v0)]:
            rt.set_cash(_v0, rt.cash(_v0) + 10)


def _s13(rt: Any) -> Any:
    if isinstance(rt, EffectAdapter):
        _a_territory_camels = rt.territory_camels()
        for _v0 in rt.territories_of_kind(0):
            rt.set_camels(_v0, _a_territory_camels[_v0] - _a_territory_camels[_v0] // 2)
    else:
        _a_territory_camels = rt.territory_camels()
        for _v0 in rt.territories_of_kind(0):
            rt.set_camels(_v0, _a_territory_camels[_v0] - _a_territory_camels[_v0] // 2)


def _s14(rt: Any) -> Any:
    if isinstance(rt, EffectAdapter):
        _a_territory_camels = rt.territory_camels()
        for _v0 in [_v0 for _v0 in rt.all_territories() if _a_territory_camels[_v0] > 0]:
            rt.set_camels(_v0, _a_territory_camels[_v0] - 1)
    else:
        _a_territory_camels = rt.territory_camels()
        for _v0 in [_v0 for _v0 in rt.all_territories() if _a_territory_camels[_v0] > 0]:
            rt.set_camels(_v0, _a_territory_camels[_v0] - 1)


def _s15(rt: Any) -> Any:
    if isinstance(rt, EffectAdapter):
        _a_territory_camels = rt.territory_camels()
        for _v0 in rt.territories_of_kind(3):
            rt.set_camels(_v0, _a_territory_camels[_v0] - 5)
    else:
        _a_territory_camels = rt.territory_camels()
        for _v0 in rt.territories_of_kind(3):
            rt.set_camels(_v0, _a_territory_camels[_v0] - 5)


def _s16(rt: Any) -> Any:
    if isinstance(rt, EffectAdapter):
        _a_territory_camels = rt.territory_camels()
        for _v0 in [_v0 for _v0 in rt.territories_of_kind(2) if rt.owner(_v0) is not None]:
            rt.set_camels(_v0, _a_territory_camels[_v0] + 5)
    else:
        _a_territory_camels = rt.territory_camels()
        for _v0 in [_v0 for _v0 in rt.territories_of_kind(2) if rt.owner(_v0) is not None]:
            rt.set_camels(_v0, _a_territory_camels[_v0] + 5)


def _s17(rt: Any) -> Any:
    if isinstance(rt, EffectAdapter):
        rt.set_kind_value(4, 'strategic', 3, True)
    else:
        rt.set_kind_value(4, 'strategic', 3, True)


def _s18(rt: Any) -> Any:
    if isinstance(rt, EffectAdapter):
        _a_territory_camels = rt.territory_camels()
        for _v0 in rt.territories_of_kind(2):
            rt.set_camels(_v0, _a_territory_camels[_v0] - 10)
    else:
        _a_territory_camels = rt.territory_camels()
        for _v0 in rt.territories_of_kind(2):
            rt.set_camels(_v0, _a_territory_camels[_v0] - 10)


def _s19(rt: Any) -> Any:
    if isinstance(rt, EffectAdapter):
        _a_territory_kinds = rt.territory_kinds()
        for _v0 in [_v0 for _v0 in rt.all_players() if any((True for _v1 in rt.territories_of(_v0) if _a_territory_kinds[_v1] == 0))]:
            rt.set_cash(_v0, 0)
    else:
        _a_territory_kinds = rt.territory_kinds()
        for _v0 in [_v0 for _v0 in rt.all_players() if any((True for _v1 in rt.territories_of(_v0) if _a_territory_kinds[_v1] == 0))]:
            rt.set_cash(_v0, 0)


def _s20(rt: Any) -> Any:
    if isinstance(rt, EffectAdapter):
        rt.set_kind_value(6, 'economic', 3, True)
    else:
        rt.set_kind_value(6, 'economic', 3, True)


def _s21(rt: Any, _p0: Any) -> Any:
    if isinstance(rt, EffectAdapter):
        return rt.cash(_p0) + rt.player_camels(_p0)
    else:
        return rt.cash(_p0) + rt.player_camels(_p0)


def _s22(rt: Any, _p0: Any) -> Any:
    if isinstance(rt, EffectAdapter):
        return rt.treasury(_p0) + rt.cash(_p0)
    else:
        return rt.treasury(_p0) + rt.cash(_p0)


def _s23(rt: Any, _p0: Any) -> Any:
    if isinstance(rt, EffectAdapter):
        return rt.player_camels(_p0)
    else:
        return rt.player_camels(_p0)


def _s24(rt: Any) -> Any:
    if isinstance(rt, EffectAdapter):
        for _v0 in tuple(rt.all_seats()):
            rt.set_cash(_v0, 0)
    else:
        for _v0 in tuple(rt.all_seats()):
            rt.set_cash(_v0, 0)


PREBUILT: dict[str, Any] = {
    "Module(body=[FunctionDef(name='formula',args=arguments(args=[arg(arg='rt'),arg(arg='_p0'),arg(arg='_p1'),arg(arg='_p2')]),body=[Return(value=BinOp(left=BinOp(left=Name(id='_p0',ctx=Load()),op=Add(),right=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='strategic',ctx=Load()),args=[Name(id='_p1',ctx=Load())])),op=FloorDiv(),right=Constant(value=2)))])])":
        _s0,
    "Module(body=[FunctionDef(name='formula',args=arguments(args=[arg(arg='rt'),arg(arg='_p0'),arg(arg='_p1'),arg(arg='_p2')]),body=[Return(value=BinOp(left=BinOp(left=Name(id='_p0',ctx=Load()),op=Add(),right=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='strategic',ctx=Load()),args=[Name(id='_p2',ctx=Load())])),op=FloorDiv(),right=Constant(value=2)))])])":
        _s1,
    "Module(body=[FunctionDef(name='formula',args=arguments(args=[arg(arg='rt'),arg(arg='_p0')]),body=[Return(value=IfExp(test=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='holds_own_settlement',ctx=Load()),args=[Name(id='_p0',ctx=Load())]),body=Call(func=Name(id='_sum',ctx=Load()),args=[GeneratorExp(elt=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='economic',ctx=Load()),args=[Name(id='_v0',ctx=Load())]),generators=[comprehension(target=Name(id='_v0',ctx=Store()),iter=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='territories_of',ctx=Load()),args=[Name(id='_p0',ctx=Load())]),is_async=0)])]),orelse=Constant(value=0)))])])":
        _s2,
    "Module(body=[FunctionDef(name='formula',args=arguments(args=[arg(arg='rt'),arg(arg='_p0')]),body=[Return(value=Call(func=Name(id='_sum',ctx=Load()),args=[GeneratorExp(elt=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='economic',ctx=Load()),args=[Name(id='_v0',ctx=Load())]),generators=[comprehension(target=Name(id='_v0',ctx=Store()),iter=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='territories_of',ctx=Load()),args=[Name(id='_p0',ctx=Load())]),is_async=0)])]))])])":
        _s3,
    "Module(body=[FunctionDef(name='formula',args=arguments(args=[arg(arg='rt'),arg(arg='_p0')]),body=[Return(value=BinOp(left=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='player_camels',ctx=Load()),args=[Name(id='_p0',ctx=Load())]),op=Add(),right=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='cash',ctx=Load()),args=[Name(id='_p0',ctx=Load())])))])])":
        _s4,
    "Module(body=[FunctionDef(name='effect',args=arguments(args=[arg(arg='rt')]),body=[For(target=Name(id='_v0',ctx=Store()),iter=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='territories_of_kind',ctx=Load()),args=[Constant(value=1)]),body=[Expr(value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='set_camels',ctx=Load()),args=[Name(id='_v0',ctx=Load()),Constant(value=0)]))])])])":
        _s5,
    "Module(body=[FunctionDef(name='effect',args=arguments(args=[arg(arg='rt')]),body=[Assign(targets=[Name(id='_a_territory_camels',ctx=Store())],value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='territory_camels',ctx=Load()))),For(target=Name(id='_v0',ctx=Store()),iter=ListComp(elt=Name(id='_v0',ctx=Load()),generators=[comprehension(target=Name(id='_v0',ctx=Store()),iter=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='all_players',ctx=Load())),ifs=[BoolOp(op=And(),values=[Compare(left=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='tribe',ctx=Load()),args=[Name(id='_v0',ctx=Load())]),ops=[Eq()],comparators=[Constant(value=3)]),Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='holds_own_settlement',ctx=Load()),args=[Name(id='_v0',ctx=Load())])])],is_async=0)]),body=[Assign(targets=[Name(id='_t0',ctx=Store())],value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='settlement',ctx=Load()),args=[Name(id='_v0',ctx=Load())])),If(test=Compare(left=Name(id='_t0',ctx=Load()),ops=[IsNot()],comparators=[Constant()]),body=[Expr(value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='set_camels',ctx=Load()),args=[Name(id='_t0',ctx=Load()),BinOp(left=Subscript(value=Name(id='_a_territory_camels',ctx=Load()),slice=Name(id='_t0',ctx=Load()),ctx=Load()),op=Add(),right=Constant(value=10))]))])])])])":
        _s6,
    "Module(body=[FunctionDef(name='effect',args=arguments(args=[arg(arg='rt')]),body=[Assign(targets=[Name(id='_a_territory_camels',ctx=Store())],value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='territory_camels',ctx=Load()))),For(target=Name(id='_v0',ctx=Store()),iter=ListComp(elt=Name(id='_v0',ctx=Load()),generators=[comprehension(target=Name(id='_v0',ctx=Store()),iter=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='all_players',ctx=Load())),ifs=[BoolOp(op=And(),values=[Compare(left=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='tribe',ctx=Load()),args=[Name(id='_v0',ctx=Load())]),ops=[Eq()],comparators=[Constant(value=2)]),Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='holds_own_settlement',ctx=Load()),args=[Name(id='_v0',ctx=Load())])])],is_async=0)]),body=[Assign(targets=[Name(id='_t0',ctx=Store())],value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='settlement',ctx=Load()),args=[Name(id='_v0',ctx=Load())])),If(test=Compare(left=Name(id='_t0',ctx=Load()),ops=[IsNot()],comparators=[Constant()]),body=[Expr(value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='set_camels',ctx=Load()),args=[Name(id='_t0',ctx=Load()),BinOp(left=Subscript(value=Name(id='_a_territory_camels',ctx=Load()),slice=Name(id='_t0',ctx=Load()),ctx=Load()),op=Add(),right=Constant(value=10))]))])])])])":
        _s7,
    "Module(body=[FunctionDef(name='effect',args=arguments(args=[arg(arg='rt')]),body=[Assign(targets=[Name(id='_a_territory_camels',ctx=Store())],value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='territory_camels',ctx=Load()))),For(target=Name(id='_v0',ctx=Store()),iter=ListComp(elt=Name(id='_v0',ctx=Load()),generators=[comprehension(target=Name(id='_v0',ctx=Store()),iter=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='all_players',ctx=Load())),ifs=[BoolOp(op=And(),values=[Compare(left=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='tribe',ctx=Load()),args=[Name(id='_v0',ctx=Load())]),ops=[Eq()],comparators=[Constant(value=0)]),Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='holds_own_settlement',ctx=Load()),args=[Name(id='_v0',ctx=Load())])])],is_async=0)]),body=[Assign(targets=[Name(id='_t0',ctx=Store())],value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='settlement',ctx=Load()),args=[Name(id='_v0',ctx=Load())])),If(test=Compare(left=Name(id='_t0',ctx=Load()),ops=[IsNot()],comparators=[Constant()]),body=[Expr(value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='set_camels',ctx=Load()),args=[Name(id='_t0',ctx=Load()),BinOp(left=Subscript(value=Name(id='_a_territory_camels',ctx=Load()),slice=Name(id='_t0',ctx=Load()),ctx=Load()),op=Add(),right=Constant(value=10))]))])])])])":
        _s8,
    "Module(body=[FunctionDef(name='effect',args=arguments(args=[arg(arg='rt')]),body=[Assign(targets=[Name(id='_a_territory_camels',ctx=Store())],value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='territory_camels',ctx=Load()))),For(target=Name(id='_v0',ctx=Store()),iter=ListComp(elt=Name(id='_v0',ctx=Load()),generators=[comprehension(target=Name(id='_v0',ctx=Store()),iter=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='all_players',ctx=Load())),ifs=[BoolOp(op=And(),values=[Compare(left=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='tribe',ctx=Load()),args=[Name(id='_v0',ctx=Load())]),ops=[Eq()],comparators=[Constant(value=1)]),Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='holds_own_settlement',ctx=Load()),args=[Name(id='_v0',ctx=Load())])])],is_async=0)]),body=[Assign(targets=[Name(id='_t0',ctx=Store())],value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='settlement',ctx=Load()),args=[Name(id='_v0',ctx=Load())])),If(test=Compare(left=Name(id='_t0',ctx=Load()),ops=[IsNot()],comparators=[Constant()]),body=[Expr(value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='set_camels',ctx=Load()),args=[Name(id='_t0',ctx=Load()),BinOp(left=Subscript(value=Name(id='_a_territory_camels',ctx=Load()),slice=Name(id='_t0',ctx=Load()),ctx=Load()),op=Add(),right=Constant(value=10))]))])])])])":
        _s9,
    "Module(body=[FunctionDef(name='effect',args=arguments(args=[arg(arg='rt')]),body=[Assign(targets=[Name(id='_a_territory_camels',ctx=Store())],value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='territory_camels',ctx=Load()))),For(target=Name(id='_v0',ctx=Store()),iter=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='territories_of_kind',ctx=Load()),args=[Constant(value=4)]),body=[Expr(value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='set_camels',ctx=Load()),args=[Name(id='_v0',ctx=Load()),BinOp(left=Subscript(value=Name(id='_a_territory_camels',ctx=Load()),slice=Name(id='_v0',ctx=Load()),ctx=Load()),op=Sub(),right=Constant(value=3))]))])])])":
        _s10,
    "Module(body=[FunctionDef(name='effect',args=arguments(args=[arg(arg='rt')]),body=[Assign(targets=[Name(id='_a_territory_camels',ctx=Store())],value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='territory_camels',ctx=Load()))),For(target=Name(id='_v0',ctx=Store()),iter=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='territories_of_kind',ctx=Load()),args=[Constant(value=2)]),body=[Expr(value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='set_camels',ctx=Load()),args=[Name(id='_v0',ctx=Load()),Call(func=Name(id='_min',ctx=Load()),args=[Subscript(value=Name(id='_a_territory_camels',ctx=Load()),slice=Name(id='_v0',ctx=Load()),ctx=Load()),Constant(value=15)])]))])])])":
        _s11,
    "Module(body=[FunctionDef(name='effect',args=arguments(args=[arg(arg='rt')]),body=[For(target=Name(id='_v0',ctx=Store()),iter=ListComp(elt=Name(id='_v0',ctx=Load()),generators=[comprehension(target=Name(id='_v0',ctx=Store()),iter=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='all_players',ctx=Load())),ifs=[Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='holds_own_settlement',ctx=Load()),args=[Name(id='_v0',ctx=Load())])],is_async=0)]),body=[Expr(value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='set_cash',ctx=Load()),args=[Name(id='_v0',ctx=Load()),BinOp(left=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='cash',ctx=Load()),args=[Name(id='_v0',ctx=Load())]),op=Add(),right=Constant(value=10))]))])])])":
        _s12,
    "Module(body=[FunctionDef(name='effect',args=arguments(args=[arg(arg='rt')]),body=[Assign(targets=[Name(id='_a_territory_camels',ctx=Store())],value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='territory_camels',ctx=Load()))),For(target=Name(id='_v0',ctx=Store()),iter=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='territories_of_kind',ctx=Load()),args=[Constant(value=0)]),body=[Expr(value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='set_camels',ctx=Load()),args=[Name(id='_v0',ctx=Load()),BinOp(left=Subscript(value=Name(id='_a_territory_camels',ctx=Load()),slice=Name(id='_v0',ctx=Load()),ctx=Load()),op=Sub(),right=BinOp(left=Subscript(value=Name(id='_a_territory_camels',ctx=Load()),slice=Name(id='_v0',ctx=Load()),ctx=Load()),op=FloorDiv(),right=Constant(value=2)))]))])])])":
        _s13,
    "Module(body=[FunctionDef(name='effect',args=arguments(args=[arg(arg='rt')]),body=[Assign(targets=[Name(id='_a_territory_camels',ctx=Store())],value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='territory_camels',ctx=Load()))),For(target=Name(id='_v0',ctx=Store()),iter=ListComp(elt=Name(id='_v0',ctx=Load()),generators=[comprehension(target=Name(id='_v0',ctx=Store()),iter=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='all_territories',ctx=Load())),ifs=[Compare(left=Subscript(value=Name(id='_a_territory_camels',ctx=Load()),slice=Name(id='_v0',ctx=Load()),ctx=Load()),ops=[Gt()],comparators=[Constant(value=0)])],is_async=0)]),body=[Expr(value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='set_camels',ctx=Load()),args=[Name(id='_v0',ctx=Load()),BinOp(left=Subscript(value=Name(id='_a_territory_camels',ctx=Load()),slice=Name(id='_v0',ctx=Load()),ctx=Load()),op=Sub(),right=Constant(value=1))]))])])])":
        _s14,
    "Module(body=[FunctionDef(name='effect',args=arguments(args=[arg(arg='rt')]),body=[Assign(targets=[Name(id='_a_territory_camels',ctx=Store())],value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='territory_camels',ctx=Load()))),For(target=Name(id='_v0',ctx=Store()),iter=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='territories_of_kind',ctx=Load()),args=[Constant(value=3)]),body=[Expr(value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='set_camels',ctx=Load()),args=[Name(id='_v0',ctx=Load()),BinOp(left=Subscript(value=Name(id='_a_territory_camels',ctx=Load()),slice=Name(id='_v0',ctx=Load()),ctx=Load()),op=Sub(),right=Constant(value=5))]))])])])":
        _s15,
    "Module(body=[FunctionDef(name='effect',args=arguments(args=[arg(arg='rt')]),body=[Assign(targets=[Name(id='_a_territory_camels',ctx=Store())],value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='territory_camels',ctx=Load()))),For(target=Name(id='_v0',ctx=Store()),iter=ListComp(elt=Name(id='_v0',ctx=Load()),generators=[comprehension(target=Name(id='_v0',ctx=Store()),iter=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='territories_of_kind',ctx=Load()),args=[Constant(value=2)]),ifs=[Compare(left=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='owner',ctx=Load()),args=[Name(id='_v0',ctx=Load())]),ops=[IsNot()],comparators=[Constant()])],is_async=0)]),body=[Expr(value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='set_camels',ctx=Load()),args=[Name(id='_v0',ctx=Load()),BinOp(left=Subscript(value=Name(id='_a_territory_camels',ctx=Load()),slice=Name(id='_v0',ctx=Load()),ctx=Load()),op=Add(),right=Constant(value=5))]))])])])":
        _s16,
    "Module(body=[FunctionDef(name='effect',args=arguments(args=[arg(arg='rt')]),body=[Expr(value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='set_kind_value',ctx=Load()),args=[Constant(value=4),Constant(value='strategic'),Constant(value=3),Constant(value=True)]))])])":
        _s17,
    "Module(body=[FunctionDef(name='effect',args=arguments(args=[arg(arg='rt')]),body=[Assign(targets=[Name(id='_a_territory_camels',ctx=Store())],value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='territory_camels',ctx=Load()))),For(target=Name(id='_v0',ctx=Store()),iter=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='territories_of_kind',ctx=Load()),args=[Constant(value=2)]),body=[Expr(value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='set_camels',ctx=Load()),args=[Name(id='_v0',ctx=Load()),BinOp(left=Subscript(value=Name(id='_a_territory_camels',ctx=Load()),slice=Name(id='_v0',ctx=Load()),ctx=Load()),op=Sub(),right=Constant(value=10))]))])])])":
        _s18,
    "Module(body=[FunctionDef(name='effect',args=arguments(args=[arg(arg='rt')]),body=[Assign(targets=[Name(id='_a_territory_kinds',ctx=Store())],value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='territory_kinds',ctx=Load()))),For(target=Name(id='_v0',ctx=Store()),iter=ListComp(elt=Name(id='_v0',ctx=Load()),generators=[comprehension(target=Name(id='_v0',ctx=Store()),iter=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='all_players',ctx=Load())),ifs=[Call(func=Name(id='_any',ctx=Load()),args=[GeneratorExp(elt=Constant(value=True),generators=[comprehension(target=Name(id='_v1',ctx=Store()),iter=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='territories_of',ctx=Load()),args=[Name(id='_v0',ctx=Load())]),ifs=[Compare(left=Subscript(value=Name(id='_a_territory_kinds',ctx=Load()),slice=Name(id='_v1',ctx=Load()),ctx=Load()),ops=[Eq()],comparators=[Constant(value=0)])],is_async=0)])])],is_async=0)]),body=[Expr(value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='set_cash',ctx=Load()),args=[Name(id='_v0',ctx=Load()),Constant(value=0)]))])])])":
        _s19,
    "Module(body=[FunctionDef(name='effect',args=arguments(args=[arg(arg='rt')]),body=[Expr(value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='set_kind_value',ctx=Load()),args=[Constant(value=6),Constant(value='economic'),Constant(value=3),Constant(value=True)]))])])":
        _s20,
    "Module(body=[FunctionDef(name='formula',args=arguments(args=[arg(arg='rt'),arg(arg='_p0')]),body=[Return(value=BinOp(left=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='cash',ctx=Load()),args=[Name(id='_p0',ctx=Load())]),op=Add(),right=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='player_camels',ctx=Load()),args=[Name(id='_p0',ctx=Load())])))])])":
        _s21,
    "Module(body=[FunctionDef(name='formula',args=arguments(args=[arg(arg='rt'),arg(arg='_p0')]),body=[Return(value=BinOp(left=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='treasury',ctx=Load()),args=[Name(id='_p0',ctx=Load())]),op=Add(),right=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='cash',ctx=Load()),args=[Name(id='_p0',ctx=Load())])))])])":
        _s22,
    "Module(body=[FunctionDef(name='formula',args=arguments(args=[arg(arg='rt'),arg(arg='_p0')]),body=[Return(value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='player_camels',ctx=Load()),args=[Name(id='_p0',ctx=Load())]))])])":
        _s23,
    "Module(body=[FunctionDef(name='effect',args=arguments(args=[arg(arg='rt')]),body=[For(target=Name(id='_v0',ctx=Store()),iter=Call(func=Name(id='_tuple',ctx=Load()),args=[Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='all_seats',ctx=Load()))]),body=[Expr(value=Call(func=Attribute(value=Name(id='rt',ctx=Load()),attr='set_cash',ctx=Load()),args=[Name(id='_v0',ctx=Load()),Constant(value=0)]))])])])":
        _s24,
}
