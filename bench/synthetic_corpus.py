"""A seeded synthetic corpus of Markdown documents for the benchmarks: headings, paragraphs with numbers, dates
and names, lists and tables, in the shapes of policies, guides, reports, runbooks and meeting notes; in English or
Simplified Chinese (the same shapes, each language's own words: `CORPUS_WORDS`)."""

from __future__ import annotations

import random
import textwrap
from collections.abc import Callable
from dataclasses import dataclass

CORPUS_KEY_PREFIX = "bench-doc-"


@dataclass(frozen=True)
class CorpusWords:
    """One language's words and shapes; every list is drawn from in the same order in each language, so a seed
    gives documents of the same structure in both."""

    first_names: list[str]
    last_names: list[str]
    cities: list[str]
    teams: list[str]
    products: list[str]
    components: list[str]
    metrics: list[str]
    units: list[str]
    expenses: list[str]
    periods: list[str]
    directions: list[str]
    roles: list[str]
    plans: list[str]
    months: list[str]
    statuses: list[str]
    sentences: list[str]
    section_titles: dict[str, list[str]]
    table_headers: list[list[str]]
    task_objects: list[str]
    policies: list[str]
    title_shapes: dict[str, str]  # by kind: {subject}, {policy}, {quarter}, {year}, {component}, {date}
    team_subject: str  # "{team} team"
    office_subject: str
    task: str  # a task in the owners' table: {component}, {object}
    name_space: str  # between a first and a last name
    sentence_space: str  # between the sentences of a paragraph
    wrap: bool  # paragraphs wrapped at 88 columns, as English Markdown is written; Chinese is not
    date_shapes: list[str]  # {year} {month} {month_name} {day} {month2} {day2}
    money_shapes: list[str]  # {amount}


ENGLISH = CorpusWords(
    first_names=["Maya", "Daniel", "Priya", "Tomasz", "Aiko", "Lucas", "Fatima", "Jonas", "Elena", "Kwame", "Sofia",
                 "Mateo", "Ingrid", "Ravi", "Chloe", "Omar", "Hannah", "Yusuf", "Lena", "Marco", "Grace", "Hiroshi",
                 "Amara", "Nils", "Beatriz", "Samuel", "Zoe", "Arjun", "Clara", "Felix"],
    last_names=["Okafor", "Reyes", "Sharma", "Kowalski", "Tanaka", "Moreau", "Haddad", "Berg", "Petrova", "Mensah",
                "Rossi", "Alvarez", "Larsen", "Iyer", "Dubois", "Farouk", "Schmidt", "Demir", "Novak", "Bianchi",
                "Lee", "Sato", "Nwosu", "Holm", "Costa", "Achebe", "Walsh", "Patel", "Fischer", "Kim"],
    cities=["Portland", "Dublin", "Frankfurt", "Singapore", "Toronto", "Lisbon", "Nairobi", "Oslo", "Austin", "Sydney",
            "Warsaw", "Osaka", "Bogotá", "Leeds", "Montréal", "Cape Town", "Tallinn", "Denver", "Seoul", "Lyon"],
    teams=["Finance", "Customer Success", "Platform", "Security", "Payroll", "Logistics", "Data Engineering",
           "Procurement", "Legal", "Facilities", "Mobile", "Billing", "Site Reliability", "People Operations"],
    products=["Lumen Notes", "Orbit Analytics", "Harbor Sync", "Nimbus Vault", "Atlas Routing", "Cedar CRM",
              "Quartz Billing", "Beacon Alerts", "Summit Forms", "Delta Ledger", "Prism Search", "Tundra Backup"],
    components=["ingest", "search", "billing", "auth", "export", "notification", "scheduler", "gateway", "cache"],
    metrics=["monthly active users", "average response time", "churn rate", "gross margin", "ticket backlog",
             "on-time delivery rate", "error rate", "storage usage", "net revenue retention", "first-response time"],
    units=["ms", "GB", "requests per second", "tickets", "days", "hours", "percent"],
    expenses=["hotel stays", "meals", "rail travel", "taxis", "conference fees", "home-office equipment", "parking"],
    periods=["night", "day", "trip", "month", "quarter"],
    directions=["rose", "fell", "grew", "declined", "increased", "decreased"],
    roles=["finance director", "head of security", "regional manager", "chief of staff", "procurement lead"],
    plans=["Free", "Plus", "Pro", "Team", "Enterprise"],
    months=["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December"],
    statuses=["done", "in progress", "blocked", "not started", "waiting for review"],
    sentences=[
        "{person} from the {team} team confirmed on {date} that {metric} reached {number} {unit}.",
        "Employees based in {city} may claim up to {money} per {period} for {expense}.",
        "The {metric} {direction} by {pct} percent compared with Q{quarter} {year}.",
        "The {product} rollout in {city} is scheduled for {date}, with a budget of {money}.",
        "Requests above {number} per minute are throttled for {small} seconds and receive a 429 response.",
        "Approval from {person}, the {role}, is required for any purchase above {money}.",
        "Since {date}, the {team} team has handled {number} tickets, {pct} percent of them within {small} hours.",
        "The {city} office employs {number} people across {small} departments.",
        "{product} keeps backups for {small} days and audit logs for {small2} months.",
        "If the {metric} exceeds {number} {unit} for more than {small} minutes, page the on-call engineer.",
        "{person} will present the {product} roadmap to the board on {date}.",
        "Contracts signed after {date} include a notice period of {small} days.",
        "Customers on the {plan} plan get {number} GB of storage and up to {small} seats.",
        "In {year}, revenue from {city} was {money}, up from {money2} a year earlier.",
        "The {team} team recommends restarting the {component} service before escalating to {person}.",
        "Travel to {city} must be approved at least {small} business days before departure.",
        "The target for {metric} in Q{quarter} {year} is {number} {unit}.",
        "{person} and {person2} agreed to review the {metric} figures again on {date}.",
        "Refund requests must be filed within {small} days of the charge and are paid within {small2} business days.",
        "Each {component} node handles about {number} requests per second at {pct} percent CPU.",
        "The {component} service was migrated to {city} on {date} after {small} weeks of testing.",
        "Overtime above {small} hours per week needs written approval from the {role}.",
    ],
    section_titles={
        "policy": ["Purpose", "Scope", "Eligibility", "Allowances", "Approval process", "Exceptions", "Reporting",
                   "Records and retention", "Contacts", "Changes in this version", "Definitions", "Enforcement"],
        "guide": ["Overview", "Plans and limits", "Installation", "Configuration", "Troubleshooting", "Known issues",
                  "Release history", "Support", "Integrations", "Data export", "Security", "Pricing"],
        "report": ["Summary", "Revenue", "Headcount", "Regional results", "Customer metrics", "Risks", "Outlook",
                   "Costs", "Hiring", "Product milestones", "Appendix", "Methodology"],
        "runbook": ["When to use this runbook", "Alerts", "Diagnosis", "Mitigation", "Escalation", "Recovery checks",
                    "Post-incident review", "Dependencies", "Capacity", "Dashboards", "Contacts", "History"],
        "minutes": ["Attendees", "Decisions", "Action items", "Budget", "Timeline", "Open questions", "Next meeting",
                    "Risks raised", "Hiring update", "Customer escalations", "Vendor review", "Any other business"],
    },
    table_headers=[["Region", "Headcount", "Budget", "Change"], ["Plan", "Monthly price", "Storage", "Seats"],
                   ["Metric", "Q1", "Q2", "Q3", "Q4"], ["Owner", "Task", "Due date", "Status"]],
    task_objects=["limits", "costs", "alerts", "contracts"],
    policies=["Travel", "Expense", "Remote work", "Purchasing", "Data retention"],
    title_shapes={"policy": "{policy} policy: {subject}", "guide": "{subject} guide",
                  "report": "Q{quarter} {year} report: {subject}",
                  "runbook": "Runbook: {component} incidents at {subject}", "minutes": "Meeting notes: {subject}, {date}"},
    team_subject="{team} team",
    office_subject="{city} office",
    task="Review {component} {object}",
    name_space=" ",
    sentence_space=" ",
    wrap=True,
    date_shapes=["{month_name} {day}, {year}", "{day} {month_name} {year}", "{year}-{month2}-{day2}"],
    money_shapes=["${amount}"],
)

CHINESE = CorpusWords(
    first_names=["伟", "芳", "娜", "敏", "静", "磊", "洋", "勇", "艳", "杰", "丽", "强", "霞", "平", "刚", "晓明", "子涵",
                 "浩然", "欣怡", "俊杰", "雨桐", "思远", "嘉怡", "志强", "婉婷", "宇航", "梓萱", "文博", "佳琪", "明轩"],
    last_names=["王", "李", "张", "刘", "陈", "杨", "赵", "黄", "周", "吴", "徐", "孙", "胡", "朱", "高", "林", "何", "郭",
                "马", "罗", "梁", "宋", "郑", "谢", "韩", "唐", "冯", "于", "董", "萧"],
    cities=["北京", "上海", "广州", "深圳", "杭州", "成都", "武汉", "南京", "西安", "苏州", "天津", "重庆", "长沙", "青岛",
            "厦门", "大连", "昆明", "合肥", "郑州", "沈阳"],
    teams=["财务", "客户成功", "平台", "安全", "薪酬", "物流", "数据工程", "采购", "法务", "行政", "移动端", "计费", "运维",
           "人力资源"],
    products=["流明笔记", "轨道分析", "港湾同步", "云端保险库", "阿特拉斯路由", "雪松客户管理", "石英计费", "信标告警",
              "峰会表单", "三角账本", "棱镜搜索", "冻土备份"],
    components=["数据接入", "搜索", "计费", "认证", "导出", "通知", "调度", "网关", "缓存"],
    metrics=["月活跃用户数", "平均响应时间", "流失率", "毛利率", "工单积压量", "准时交付率", "错误率", "存储用量",
             "净收入留存率", "首次响应时间"],
    units=["毫秒", "GB", "次请求每秒", "张工单", "天", "小时", "个百分点"],
    expenses=["住宿费", "餐费", "火车票", "出租车费", "会议费", "居家办公设备", "停车费"],
    periods=["晚", "天", "次出差", "月", "季度"],
    directions=["上升", "下降", "增长", "减少", "提高", "降低"],
    roles=["财务总监", "安全负责人", "区域经理", "办公室主任", "采购主管"],
    plans=["免费版", "增强版", "专业版", "团队版", "企业版"],
    months=[f"{month}月" for month in range(1, 13)],
    statuses=["已完成", "进行中", "受阻", "未开始", "待审核"],
    sentences=[
        "{team}团队的{person}于{date}确认，{metric}达到{number}{unit}。",
        "常驻{city}的员工每{period}的{expense}最多可报销{money}。",
        "{metric}与{year}年第{quarter}季度相比{direction}了{pct}%。",
        "{product}在{city}的上线定于{date}，预算为{money}。",
        "每分钟超过{number}次的请求将被限流{small}秒，并收到429响应。",
        "任何超过{money}的采购都须经{role}{person}批准。",
        "自{date}以来，{team}团队共处理{number}张工单，其中{pct}%在{small}小时内解决。",
        "{city}办公室共有{number}名员工，分属{small}个部门。",
        "{product}的备份保留{small}天，审计日志保留{small2}个月。",
        "如果{metric}超过{number}{unit}并持续{small}分钟以上，请呼叫值班工程师。",
        "{person}将于{date}向董事会介绍{product}的路线图。",
        "{date}之后签订的合同包含{small}天的通知期。",
        "{plan}的客户可获得{number}GB存储空间和最多{small}个席位。",
        "{year}年{city}的收入为{money}，上一年为{money2}。",
        "{team}团队建议先重启{component}服务，再交由{person}处理。",
        "前往{city}出差须至少提前{small}个工作日获得批准。",
        "{year}年第{quarter}季度{metric}的目标为{number}{unit}。",
        "{person}和{person2}同意于{date}再次审查{metric}数据。",
        "退款申请须在扣款后{small}天内提交，款项在{small2}个工作日内退回。",
        "每个{component}节点在CPU占用{pct}%时每秒处理约{number}个请求。",
        "{component}服务经过{small}周测试后，于{date}迁移到{city}。",
        "每周超过{small}小时的加班须经{role}书面批准。",
    ],
    section_titles={
        "policy": ["目的", "适用范围", "资格条件", "补贴标准", "审批流程", "例外情况", "报告", "记录与保存", "联系人",
                   "本版变更", "定义", "执行"],
        "guide": ["概述", "套餐与限制", "安装", "配置", "故障排除", "已知问题", "版本历史", "支持", "集成", "数据导出",
                  "安全", "价格"],
        "report": ["摘要", "收入", "人员", "区域业绩", "客户指标", "风险", "展望", "成本", "招聘", "产品里程碑", "附录",
                   "方法说明"],
        "runbook": ["适用场景", "告警", "诊断", "缓解措施", "升级处理", "恢复检查", "事后复盘", "依赖", "容量", "仪表盘",
                    "联系人", "历史"],
        "minutes": ["参会人员", "决定", "行动项", "预算", "时间表", "待定问题", "下次会议", "提出的风险", "招聘进展",
                    "客户升级", "供应商评审", "其他事项"],
    },
    table_headers=[["地区", "人数", "预算", "变化"], ["套餐", "月费", "存储", "席位"],
                   ["指标", "第一季度", "第二季度", "第三季度", "第四季度"], ["负责人", "任务", "截止日期", "状态"]],
    task_objects=["限额", "成本", "告警", "合同"],
    policies=["差旅", "报销", "远程办公", "采购", "数据保留"],
    title_shapes={"policy": "{subject}{policy}制度", "guide": "{subject}使用指南",
                  "report": "{year}年第{quarter}季度报告：{subject}", "runbook": "运行手册：{subject}{component}故障",
                  "minutes": "会议纪要：{subject}，{date}"},
    team_subject="{team}团队",
    office_subject="{city}办公室",
    task="审查{component}{object}",
    name_space="",
    sentence_space="",
    wrap=False,
    date_shapes=["{year}年{month}月{day}日", "{year}-{month2}-{day2}", "{year}年{month2}月{day2}日"],
    money_shapes=["{amount}元", "¥{amount}"],
)

CORPUS_WORDS = {"en": ENGLISH, "zh": CHINESE}


def _person(rng: random.Random, words: CorpusWords) -> str:
    first, last = rng.choice(words.first_names), rng.choice(words.last_names)
    return f"{first}{words.name_space}{last}" if words.name_space else f"{last}{first}"


def _money(rng: random.Random, words: CorpusWords, high: int = 90_000) -> str:
    amount = f"{rng.randint(5, high):,}"
    # One shape is no draw: English keeps the random sequence it had before Chinese was added.
    shape = rng.choice(words.money_shapes) if len(words.money_shapes) > 1 else words.money_shapes[0]
    return shape.format(amount=amount)


def _date(rng: random.Random, words: CorpusWords) -> str:
    day, month, year = rng.randint(1, 28), rng.randint(1, 12), rng.randint(2018, 2026)
    style = rng.randrange(3)  # documents mix date formats, and the checker must read all of them
    return words.date_shapes[style].format(year=year, month=month, day=day, month_name=words.months[month - 1],
                                           month2=f"{month:02d}", day2=f"{day:02d}")


def _sentence(rng: random.Random, words: CorpusWords) -> str:
    values = {
        "person": _person(rng, words), "person2": _person(rng, words), "team": rng.choice(words.teams),
        "city": rng.choice(words.cities), "product": rng.choice(words.products),
        "component": rng.choice(words.components), "metric": rng.choice(words.metrics),
        "unit": rng.choice(words.units), "expense": rng.choice(words.expenses), "period": rng.choice(words.periods),
        "direction": rng.choice(words.directions), "role": rng.choice(words.roles), "plan": rng.choice(words.plans),
        "date": _date(rng, words), "money": _money(rng, words), "money2": _money(rng, words),
        "number": f"{rng.randint(12, 48_000):,}", "pct": f"{rng.uniform(0.5, 45):.1f}",
        "small": str(rng.randint(2, 30)), "small2": str(rng.randint(2, 36)), "quarter": str(rng.randint(1, 4)),
        "year": str(rng.randint(2018, 2026)),
    }
    text = rng.choice(words.sentences).format(**values)
    return text[0].upper() + text[1:]


def _paragraph(rng: random.Random, words: CorpusWords) -> str:
    text = words.sentence_space.join(_sentence(rng, words) for _ in range(rng.randint(2, 6)))
    return textwrap.fill(text, width=88) if words.wrap else text


def _bullet_list(rng: random.Random, words: CorpusWords) -> str:
    return "\n".join(f"- {_sentence(rng, words)}" for _ in range(rng.randint(3, 6)))


def _table_row(rng: random.Random, words: CorpusWords, shape: int) -> list[str]:
    if shape == 0:
        return [rng.choice(words.cities), str(rng.randint(4, 900)), _money(rng, words), f"{rng.uniform(-20, 40):+.1f}%"]
    if shape == 1:
        return [rng.choice(words.plans), _money(rng, words, high=400), f"{rng.choice([2, 10, 50, 250])} GB",
                str(rng.randint(1, 500))]
    if shape == 2:
        metric = rng.choice(words.metrics)
        return [metric[0].upper() + metric[1:], *(str(rng.randint(10, 9999)) for _ in range(4))]
    owner = _person(rng, words)
    task = words.task.format(component=rng.choice(words.components), object=rng.choice(words.task_objects))
    return [owner, task, _date(rng, words), rng.choice(words.statuses)]


def _table(rng: random.Random, words: CorpusWords) -> str:
    shape = rng.randrange(len(words.table_headers))
    header = words.table_headers[shape]
    lines = [f"| {' | '.join(header)} |", f"|{'---|' * len(header)}"]
    lines += [f"| {' | '.join(_table_row(rng, words, shape))} |" for _ in range(rng.randint(3, 7))]
    return "\n".join(lines)


def _section_body(rng: random.Random, words: CorpusWords) -> list[str]:
    makers: list[Callable[[random.Random, CorpusWords], str]] = [_paragraph] * 6 + [_bullet_list] * 3 + [_table] * 2
    return [_paragraph(rng, words)] + [rng.choice(makers)(rng, words) for _ in range(rng.randint(0, 2))]


def _title(rng: random.Random, kind: str, words: CorpusWords) -> str:
    subject = rng.choice([rng.choice(words.products), words.team_subject.format(team=rng.choice(words.teams)),
                          words.office_subject.format(city=rng.choice(words.cities))])
    policy = rng.choice(words.policies)
    # Every shape's values are drawn whatever the kind, so a seed gives the same documents as it always has.
    values = {"subject": subject, "policy": policy, "quarter": rng.randint(1, 4), "year": rng.randint(2019, 2026),
              "component": rng.choice(words.components), "date": _date(rng, words)}
    return words.title_shapes[kind].format(**values)


@dataclass(frozen=True)
class SyntheticDocument:
    key: str
    title: str
    security_level: str
    markdown: str


def synthetic_document(rng: random.Random, number: int, *, words: CorpusWords = ENGLISH) -> SyntheticDocument:
    kind = rng.choice(list(words.section_titles))
    title = _title(rng, kind, words)
    parts = [f"# {title}", _paragraph(rng, words)]
    for heading in rng.sample(words.section_titles[kind], rng.randint(4, 10)):
        parts.append(f"## {heading}")
        parts += _section_body(rng, words)
        if rng.random() < 0.25:  # some sections have a regional subsection: deeper heading paths
            parts += [f"### {rng.choice(words.cities)}", *_section_body(rng, words)]
    # Mostly readable by an internal client, as in a real KB; a few documents are above its clearance.
    level = rng.choices(["public", "internal", "confidential", "restricted"], weights=[30, 50, 15, 5])[0]
    return SyntheticDocument(key=f"{CORPUS_KEY_PREFIX}{number:05d}", title=title[:200], security_level=level,
                             markdown="\n\n".join(parts) + "\n")


def synthetic_corpus(*, seed: int, count: int, language: str = "en") -> list[SyntheticDocument]:
    rng, words = random.Random(seed), CORPUS_WORDS[language]
    return [synthetic_document(rng, number, words=words) for number in range(count)]
