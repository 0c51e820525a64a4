// The reference dictionary: every other language must provide exactly these keys (see ./types.ts).
export const zhCN = {
  meta: {
    siteName: "DSA 股票智能分析",
    description: "自托管的 AI 股票分析服务：A 股、港股、美股与指数。",
  },
  shell: {
    brand: "DSA",
    brandTagline: "股票智能分析",
    skipToContent: "跳到主要内容",
    mainNav: "主导航",
    apiDocs: "API 文档",
    language: "语言",
    theme: "主题",
    themeLight: "浅色",
    themeDark: "深色",
    themeSystem: "跟随系统",
    version: "版本",
    disclaimer: "分析结果由程序与模型自动生成，仅供参考，不构成投资建议。投资有风险，入市需谨慎。",
  },
  nav: {
    analyze: "分析",
    history: "历史",
    signals: "信号",
    portfolio: "持仓",
    alerts: "提醒",
    usage: "用量",
    settings: "设置",
  },
  comingSoon: {
    badge: "即将推出",
    note: "此页面尚在开发中。在此之前，可以通过 API 使用相关功能：",
    docsLink: "查看 API 文档",
  },
  pages: {
    analyze: {
      title: "分析",
      description:
        "输入一个或多个股票代码（A 股、港股、美股或指数），DSA 拉取行情与新闻，计算技术指标、运行交易规则，并可选调用大模型，生成包含操作建议、关键价位和风险提示的分析报告。批量分析时可以实时查看每个任务的进度。",
    },
    history: {
      title: "历史",
      description:
        "浏览和搜索过去的每一份分析报告，按股票代码或日期筛选，对比同一只股票在不同时间的结论，导出 Markdown 或生成分享图片，并删除不再需要的记录。",
    },
    signals: {
      title: "信号",
      description:
        "汇总分析产生的买入、卖出与观望信号，跟踪信号发出后的价格表现与胜率，帮助你判断哪些规则和模型在你关注的市场上真正有效。",
    },
    portfolio: {
      title: "持仓",
      description:
        "记录你的持仓与交易，按最新行情计算市值、成本、浮动盈亏与仓位占比，并把每只持仓与最近一次分析结论放在一起，方便盘后复盘。",
    },
    alerts: {
      title: "提醒",
      description:
        "为股票设置价格、涨跌幅或信号变化等条件，条件满足时通过你已配置的通知渠道推送提醒，不必整天盯盘。",
    },
    usage: {
      title: "用量",
      description:
        "统计每次分析调用大模型消耗的 token 数量与估算费用，按日期、模型和股票汇总，帮助你掌握并控制分析成本。",
    },
    settings: {
      title: "设置",
      description:
        "配置行情与新闻数据源、大模型服务商与密钥、通知渠道、涨跌颜色习惯（红涨绿跌或绿涨红跌）以及访问密码，保存后立即生效。",
    },
  },
};
